import Localization
import Dispatch
import Foundation
import Geodesy
import Geometry
import GraffityARCloud
import Support
import VPSModel
import Synchronization
import VPSClient

/// Localizes frames through the HTTP service, for `arcloud localize --server`: one
/// `POST /v1/localize` per frame. Transient failures (no answer, 408/429/502/503/504) are
/// retried under the SDK's `RetryPolicy` — exponential backoff with full jitter, bounded
/// in attempts and time — as the SDK's backend does; other failures count as failed frames.
///
/// Called from the batch's worker threads (plain threads, not the Swift concurrency pool),
/// which wait for each exchange.
public final class ServiceFrameLocalizer: FrameLocalizer {
    public let client: VPSClient
    public let mapId: String
    /// The map's units as the service states them in its listing (`metres` or `unknown`;
    /// nil when not known): what scoring the answers against ground truth needs.
    public let mapUnits: String?
    public let policy: RetryPolicy
    /// Retries made, across all frames.
    public let retries = Atomic<Int>(0)
    /// Frames whose request failed for good (after retries, or at once for terminal errors).
    public let failedFrames = Atomic<Int>(0)
    /// Map content versions the answers named: more than one means a rollout ran meanwhile.
    public let mapVersions = Locked<Set<String>>([])
    private let firstFailure = Locked<String?>(nil)

    public init(client: VPSClient, mapId: String, mapUnits: String? = nil, policy: RetryPolicy = .default) {
        self.client = client; self.mapId = mapId; self.mapUnits = mapUnits; self.policy = policy
    }

    /// The first failure's message, when any frame failed.
    public var firstFailureMessage: String? { firstFailure.withLock { $0 } }

    public func localize(encoded bytes: [UInt8], intrinsics: CameraIntrinsics, prior: Pose?,
                         gravity: SIMD3<Double>?, location: GPSReading?) throws -> LocalizationResult {
        try localize(encoded: bytes, intrinsics: intrinsics, prior: prior, priorAccuracy: nil, gravity: gravity,
                     location: location)
    }

    public func localize(encoded bytes: [UInt8], intrinsics: CameraIntrinsics, prior: Pose?, priorAccuracy: PoseAccuracy?,
                         gravity: SIMD3<Double>?, location: GPSReading?) throws -> LocalizationResult {
        let request = LocalizeRequest(mapId: mapId, intrinsics: intrinsics, prior: prior, priorAccuracy: priorAccuracy,
                                      gravity: gravity, location: location)
        let start = ContinuousClock.now
        var attempt = 1
        while true {
            do throws(VPSClientError) {
                let client = self.client
                let answer = try Self.waitFor { () async throws(VPSClientError) in
                    try await client.localize(image: bytes, request: request)
                }
                if let v = answer.mapVersion { mapVersions.withLock { _ = $0.insert(v) } }
                return LocalizationResult(answer)
            } catch {
                let delay = policy.backoff(beforeRetry: attempt, unit: Double.random(in: 0..<1))
                guard error.isTransient, attempt < policy.maxAttempts,
                      ContinuousClock.now - start + delay <= policy.budget else {
                    failedFrames.add(1, ordering: .relaxed)
                    let message = attempt > 1 ? "\(error) (after \(attempt) attempts)" : "\(error)"
                    firstFailure.withLock { if $0 == nil { $0 = message } }
                    throw ServiceFrameError(message: message)
                }
                retries.add(1, ordering: .relaxed)
                Thread.sleep(forTimeInterval: delay.seconds)
                attempt += 1
            }
        }
    }

    /// Runs an async client call to completion from a plain thread.
    private static func waitFor<T: Sendable>(
        _ operation: @escaping @Sendable () async throws(VPSClientError) -> T
    ) throws(VPSClientError) -> T {
        let outcome = Locked<Result<T, VPSClientError>?>(nil)
        let done = DispatchSemaphore(value: 0)
        Task {
            let result: Result<T, VPSClientError>
            do throws(VPSClientError) { result = .success(try await operation()) } catch { result = .failure(error) }
            outcome.withLock { $0 = result }
            done.signal()
        }
        done.wait()
        return try outcome.withLock { $0! }.get()
    }
}

/// A frame the service could not answer; the batch records it as not localized with this
/// message as the reason.
public struct ServiceFrameError: Error, CustomStringConvertible {
    public let message: String
    public var description: String { "service: \(message)" }
}
