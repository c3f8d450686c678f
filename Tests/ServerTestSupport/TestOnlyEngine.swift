import Localization
import Foundation
import Geometry
import Synchronization
import VPSModel
import VPSServer

/// A stand-in `LocalizationEngine` for HTTP-layer and SDK-lifecycle tests ONLY (auth,
/// limits, errors, concurrency, a real server behind the SDK). It does no localization: it
/// answers `localized` with its fixed pose when given one, else the request's prior (or
/// identity), and counts calls. The product never uses it.
package final class TestOnlyEngine: LocalizationEngine {
    package static let mapIds = ["gallery", "lobby"]
    package let calls = Atomic<Int>(0)
    /// When set, `localize` waits on it (graceful-stop tests hold a request in flight) until
    /// signalled or cancelled.
    package let gate: DispatchSemaphore?
    /// Signalled when a gated `localize` has started.
    package let entered = DispatchSemaphore(value: 0)

    /// False: a gated `localize` ignores cancellation, like a stage that is not interrupted.
    package let honoursCancellation: Bool

    /// The pose every answer gives, when set.
    package let pose: Pose?

    package init(gate: DispatchSemaphore? = nil, honoursCancellation: Bool = true, answering pose: Pose? = nil) {
        self.gate = gate
        self.honoursCancellation = honoursCancellation
        self.pose = pose
    }

    /// `localize` calls so far.
    package var localizeCalls: Int { calls.load(ordering: .relaxed) }

    package func maps() throws(LocalizationEngineError) -> [MapSummary] {
        Self.mapIds.map { MapSummary(id: $0, name: $0.capitalized, keyframes: 10, points: 1000, sections: ["main"],
                                  units: "metres") }
    }

    package func scene(mapId: String) throws(LocalizationEngineError) -> SceneContent {
        guard Self.mapIds.contains(mapId) else { throw .unknownMap(mapId) }
        return SceneContent(sections: [MapSection(id: "main", name: "Main hall")])
    }

    package func localize(image: [UInt8], request: LocalizeRequest,
                  cancellation: LocalizationCancellation) throws(LocalizationEngineError) -> LocalizeResponse {
        calls.add(1, ordering: .relaxed)
        if let gate {
            // Held like a long localization, and cancellable like the real one (which checks
            // between stages): the time-budget and drain tests depend on it.
            entered.signal()
            while gate.wait(timeout: .now() + .milliseconds(5)) == .timedOut {
                if honoursCancellation, cancellation.isCancelled { throw .cancelled }
            }
        }
        guard Self.mapIds.contains(request.mapId) else { throw .unknownMap(request.mapId) }
        return LocalizeResponse(status: .localized, mapId: request.mapId, pose: pose ?? request.prior ?? .identity,
                                sectionId: "main", inliers: image.count % 1000, reprojectionError: 0.5,
                                timings: ["total": 0.1])
    }

    package var loadedMapCount: Int { calls.load(ordering: .relaxed) > 0 ? 1 : 0 }
}
