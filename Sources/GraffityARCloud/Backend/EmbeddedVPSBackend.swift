import Foundation
import VPS

// ┌──────────────────────────────────────────────────────────────────────────────────┐
// │ ADAPTER PENDING — localize(_:) is to be completed when the in-process localizer  │
// │ lands in the VPS module:                                                         │
// │   load the map at `mapURL` once (VPSMap.load(from:), kept for later calls), run  │
// │   the localizer on `request.image.data` with `request.intrinsics` and            │
// │   `request.prior`, off the caller's executor; accepted → .localized(             │
// │   LocalizationFix(pose:sectionId:inliers:reprojectionError:)), rejected →        │
// │   .notLocalized(reason:); an undecodable image → VPSBackendError.rejected.       │
// │ Until then it fails with the terminal `.unavailable`: this file must not pretend │
// │ to localize. scene(mapId:) is already real.                                      │
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
        throw VPSBackendError.unavailable(
            "the embedded localizer is not part of this build yet; configure a server URL to use the HTTP VPS")
    }

    /// Reads the scene content from the map file.
    /// - Throws: `.mapNotFound` for another map id or a missing file; `.unavailable` for a
    ///   file that is not a readable arcloud map.
    public func scene(mapId: String) async throws -> SceneContent {
        guard mapId == self.mapId else { throw VPSBackendError.mapNotFound(mapId: mapId) }
        do {
            return try VPSMap.loadScene(from: mapURL.path)
        } catch let error as MapFileError {
            if error.reason == .missing { throw VPSBackendError.mapNotFound(mapId: mapId) }
            throw VPSBackendError.unavailable(error.description)
        } catch {
            throw VPSBackendError.unavailable("\(mapURL.path): \(error)")
        }
    }
}
