import Foundation
import VPS

// ┌──────────────────────────────────────────────────────────────────────────────────┐
// │ ADAPTER PENDING — to be completed when the in-process localizer and the SQLite   │
// │ map store land in the VPS module.                                                │
// │                                                                                  │
// │ localize(_:)  → open the map at `mapURL` once (cache it), run the localizer on   │
// │                 `request.image` with `request.intrinsics` and `request.prior`,   │
// │                 map accepted → .localized(LocalizationFix), rejected →           │
// │                 .notLocalized(reason:). Run it off the caller's executor.        │
// │ scene(mapId:) → read SceneContent from the same map; a missing file or another   │
// │                 map id → VPSBackendError.mapNotFound.                             │
// │                                                                                  │
// │ Until then both calls fail with the terminal `.unavailable`: this file must not  │
// │ pretend to localize.                                                             │
// └──────────────────────────────────────────────────────────────────────────────────┘

/// The in-process VPS: localizes against a map file on this machine, with no server.
/// `GraffityARCloud` uses it when `Configuration.serverURL` is nil.
public struct EmbeddedVPSBackend: VPSBackend {
    /// The map this backend serves.
    public let mapId: String
    /// The map file (`.vpsmap`).
    public let mapURL: URL

    public init(mapId: String, mapURL: URL) {
        self.mapId = mapId; self.mapURL = mapURL
    }

    public func localize(_ request: LocalizationRequest) async throws -> LocalizationResponse {
        throw VPSBackendError.unavailable(Self.pendingMessage)
    }

    public func scene(mapId: String) async throws -> SceneContent {
        throw VPSBackendError.unavailable(Self.pendingMessage)
    }

    static let pendingMessage =
        "the embedded localizer is not part of this build yet; configure a server URL to use the HTTP VPS"
}
