import Foundation
import Geodesy
import Geometry
import Support
import VPSModel
import Synchronization

/// Localizes every frame of a recorded session on all cores, with the embedded localizer
/// or any other `FrameLocalizer` (the HTTP service: `arcloud localize --server`).
///
/// Each worker is a thread of its own with its own frame localizer. Single-shot mode hands frames to workers one at a time. Tracking mode needs the
/// previous result, so the session is cut into one contiguous run of frames per worker;
/// each run starts single-shot and then tracks.
public struct BatchLocalizer: Sendable {
    public var mode: LocalizationMode
    /// Worker threads; defaults to the number of active cores.
    public var workers: Int
    /// Hands each frame's gravity (from its odometry, see `RecordedSession.Frame.gravity`)
    /// to the localizer, as a phone SDK does; false localizes from the image alone.
    public var useGravity: Bool
    /// Where each frame's location prior comes from (`LocationPrior`), or nil for none.
    public var location: BatchLocation?

    /// The frame localizer of worker `i` (0-based), made when a run starts.
    private let makeWorker: @Sendable (Int) throws -> any FrameLocalizer

    /// A batch on the embedded localizer: worker 0 uses `localizer`, the others a worker
    /// copy each (`Localizer.makeWorker()`).
    public init(localizer: Localizer, mode: LocalizationMode = .singleShot,
                workers: Int = Cores.available, useGravity: Bool = true) {
        self.init(mode: mode, workers: workers, useGravity: useGravity) { i in
            i == 0 ? localizer : try localizer.makeWorker()
        }
    }

    /// A batch on any frame localizer; `makeWorker(i)` gives worker `i` its own.
    public init(mode: LocalizationMode = .singleShot, workers: Int = Cores.available,
                useGravity: Bool = true, makeWorker: @escaping @Sendable (Int) throws -> any FrameLocalizer) {
        self.mode = mode; self.workers = max(1, workers); self.useGravity = useGravity
        self.makeWorker = makeWorker
    }

    /// Localizes `session` (stored in `directory`). `progress` is called after each frame
    /// with the number done, from worker threads. Each frame keeps its inlier matches
    /// unless `retention` lets them go. Returns outcomes in frame order and the wall-clock
    /// seconds the run took.
    public func run(_ session: RecordedSession, in directory: URL, retention: (any InlierMatchRetention)? = nil,
                    progress: (@Sendable (Int) -> Void)? = nil) throws -> (outcomes: [FrameOutcome], wallSeconds: Double) {
        let results = Locked([FrameOutcome?](repeating: nil, count: session.frames.count))
        let kept = Locked(retention)
        let seconds = try run(session, in: directory, progress: progress) { i, outcome in
            results.withLock { $0[i] = outcome }
            let released = kept.withLock { r in r?.offer(outcome, at: i) ?? [] }
            if !released.isEmpty {
                results.withLock { all in for j in released { all[j]?.result.inlierMatches = [] } }
            }
        }
        return (results.withLock { $0.compactMap { $0 } }, seconds)
    }

    /// Localizes `session` (stored in `directory`) and hands each frame's outcome to
    /// `consume` (frame index, outcome) as soon as it is done, from worker threads and in
    /// any order, keeping none: what a long session needs kept is the consumer's choice.
    /// `progress` is called after each `consume` with the number done. Returns the
    /// wall-clock seconds the run took.
    public func run(_ session: RecordedSession, in directory: URL, progress: (@Sendable (Int) -> Void)? = nil,
                    consume: @escaping @Sendable (Int, FrameOutcome) -> Void) throws -> Double {
        let frames = session.frames
        let workerCount = min(workers, max(frames.count, 1))
        let pool = try (0..<workerCount).map(makeWorker)
        let done = Atomic<Int>(0)
        let start = DispatchTime.now().uptimeNanoseconds
        let camera = session.camera
        let useGravity = useGravity, location = location

        @Sendable func localize(_ i: Int, with worker: any FrameLocalizer, prior: Pose?) -> FrameOutcome {
            let frame = frames[i]
            let result: LocalizationResult
            do {
                let bytes = try [UInt8](Data(contentsOf: RecordedSession.imageURL(of: frame, in: directory)))
                result = try worker.localize(encoded: bytes, intrinsics: camera, prior: prior,
                                             gravity: useGravity ? frame.gravity : nil,
                                             location: location?.reading(for: frame))
            } catch {
                result = LocalizationResult(status: .rejected, reason: "\(error)")
            }
            let outcome = FrameOutcome(frameId: frame.id, image: frame.image, timestamp: frame.timestamp, result: result, groundTruth: frame.pose)
            consume(i, outcome)
            progress?(done.add(1, ordering: .relaxed).newValue)
            return outcome
        }

        switch mode {
        case .singleShot:
            let next = Atomic<Int>(0)
            WorkerThreads.run(count: workerCount) { w in
                while true {
                    let i = next.add(1, ordering: .relaxed).oldValue
                    if i >= frames.count { break }
                    _ = localize(i, with: pool[w], prior: nil)
                }
            }
        case .tracking:
            let runLength = (frames.count + workerCount - 1) / workerCount
            WorkerThreads.run(count: workerCount) { w in
                var tracker = OdometryTracker()
                for i in (w * runLength)..<min((w + 1) * runLength, frames.count) {
                    let prior = tracker.predict(odometry: frames[i].odometry)
                    let outcome = localize(i, with: pool[w], prior: prior)
                    tracker.update(fix: outcome.result.pose, odometry: frames[i].odometry)
                }
            }
        }
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    }
}
