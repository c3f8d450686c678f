import Localization
import Dispatch
import Foundation
import Geodesy
import MapModel
import Storage
import Support
import VPSModel
import Geometry

/// The in-process VPS: localizes against a map file on this machine, with no server.
/// `GraffityARCloud` uses it when `Configuration.serverURL` is nil.
///
/// The map is loaded once, on the first localization, and kept for the backend's life
/// (copies of the backend share it). Localization is CPU work (tens of milliseconds): it
/// runs on the backend's own serial queue, never on the caller's executor, so the main
/// actor stays responsive while a frame is being localized.
public struct EmbeddedVPSBackend: VPSBackend {
    /// The map this backend serves.
    public let mapId: String
    /// The map file (`.vpsmap`).
    public let mapURL: URL
    private let engine: LocalizerEngine

    /// A backend serving `mapId` from the map file at `mapURL` (loaded on first use).
    public init(mapId: String, mapURL: URL, options: LocalizerOptions = LocalizerOptions()) {
        self.mapId = mapId; self.mapURL = mapURL
        engine = LocalizerEngine(mapURL: mapURL, options: options)
    }

    /// Localizes the request's image with the map's localizer.
    /// - Throws: `.mapNotFound` for another map id or a missing file; `.unavailable` for a
    ///   file that is not a usable map; `.rejected` (422) for an image or intrinsics the
    ///   localizer cannot work with; `CancellationError` when cancelled before it finished.
    public func localize(_ request: LocalizationRequest) async throws -> LocalizationResponse {
        guard request.mapId == mapId else { throw VPSBackendError.mapNotFound(mapId: request.mapId) }
        let result = try await engine.localize(bytes: [UInt8](request.image.data), intrinsics: request.intrinsics,
                                               prior: request.prior, priorAccuracy: request.priorAccuracy,
                                               gravity: request.gravity, location: request.location,
                                               mapId: mapId)
        guard result.isLocalized, let pose = result.pose else {
            return .notLocalized(reason: result.reason ?? "not localized")
        }
        return .localized(LocalizationFix(pose: pose, sectionId: result.sectionId ?? "", inliers: result.inliers,
                                          reprojectionError: result.reprojectionError, accuracy: result.accuracy,
                                          geoPose: result.geoPose, geoAccuracy: result.geoAccuracy))
    }

    /// Reads the scene content from the map file (cheap: the scene tables only).
    /// - Throws: `.mapNotFound` for another map id or a missing file; `.unavailable` for a
    ///   file that is not a readable arcloud map.
    public func scene(mapId: String) async throws -> SceneContent {
        guard mapId == self.mapId else { throw VPSBackendError.mapNotFound(mapId: mapId) }
        do {
            return try VPSMap.loadScene(from: mapURL.path)
        } catch {
            throw Self.classify(mapLoadError: error, mapId: mapId, path: mapURL.path)
        }
    }

    static func classify(mapLoadError error: any Error, mapId: String, path: String) -> VPSBackendError {
        if let e = error as? MapFileError {
            return e.reason == .missing ? .mapNotFound(mapId: mapId) : .unavailable(e.description)
        }
        return .unavailable("\(path): \(error)")
    }
}

/// The map's localizer, loaded on first use, and the serial queue localizations run on.
///
/// One queue per backend: requests of one session are sequential anyway, and the
/// localizer serialises on its feature extractor, so more threads would only wait.
final class LocalizerEngine: Sendable {
    private let mapURL: URL
    private let options: LocalizerOptions
    private let queue = DispatchQueue(label: "arcloud.embedded-vps", qos: .userInitiated)
    /// Touched only on `queue`; the lock makes that checkable.
    private let localizer = Locked<Localizer?>(nil)

    init(mapURL: URL, options: LocalizerOptions) {
        self.mapURL = mapURL; self.options = options
    }

    func localize(bytes: [UInt8], intrinsics: CameraIntrinsics, prior: Pose?, priorAccuracy: PoseAccuracy?,
                  gravity: SIMD3<Double>?, location: GPSReading?, mapId: String) async throws -> LocalizationResult {
        try Task.checkCancellation()
        let cancelled = Locked(false)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<LocalizationResult, any Error>) in
                queue.async {
                    // A request cancelled while queued is not worth its tens of milliseconds.
                    if cancelled.withLock({ $0 }) { continuation.resume(throwing: CancellationError()); return }
                    // One cancelled while running stops at the localizer's next stage.
                    let cancellation = LocalizationCancellation(when: { cancelled.withLock { $0 } })
                    continuation.resume(with: Result {
                        try self.run(bytes: bytes, intrinsics: intrinsics, prior: prior, priorAccuracy: priorAccuracy,
                                     gravity: gravity,
                                     location: location, mapId: mapId, cancellation: cancellation)
                    })
                }
            }
        } onCancel: {
            cancelled.withLock { $0 = true }
        }
    }

    /// On `queue`: loads the map when needed, then localizes.
    private func run(bytes: [UInt8], intrinsics: CameraIntrinsics, prior: Pose?, priorAccuracy: PoseAccuracy?,
                     gravity: SIMD3<Double>?,
                     location: GPSReading?, mapId: String, cancellation: LocalizationCancellation) throws -> LocalizationResult {
        let localizer = try loadedLocalizer(mapId: mapId)
        do {
            return try localizer.localize(encoded: bytes, intrinsics: intrinsics, prior: prior,
                                          priorAccuracy: priorAccuracy, gravity: gravity,
                                          near: LocationPrior(location, georeference: localizer.map.metadata.georeference),
                                          cancellation: cancellation)
        } catch let error as LocalizationError {
            switch error {
            case .cancelled: throw CancellationError()
            case .emptyMap: throw VPSBackendError.unavailable(error.description)
            case .invalidIntrinsics, .imageSizeMismatch, .image, .invalidGravity, .invalidLocationPrior:
                throw VPSBackendError.rejected(status: 422, message: error.description)
            }
        }
    }

    /// A failed load is not remembered: a later request (after `reset()`) tries again.
    private func loadedLocalizer(mapId: String) throws -> Localizer {
        if let loaded = localizer.withLock({ $0 }) { return loaded }
        let map: VPSMap
        do { map = try VPSMap.load(from: mapURL.path) } catch {
            throw EmbeddedVPSBackend.classify(mapLoadError: error, mapId: mapId, path: mapURL.path)
        }
        let made: Localizer
        do { made = try Localizer(map: map, options: options) } catch {
            throw VPSBackendError.unavailable("map '\(mapId)' cannot localize: \(error)")
        }
        localizer.withLock { $0 = made }
        return made
    }
}
