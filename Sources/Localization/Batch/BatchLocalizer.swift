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
        try run(frames: session.frames, camera: session.camera, in: directory, progress: progress, consume: consume)
    }

    /// As `run(_:in:progress:consume:)`, the frames read in order as the workers take them
    /// (`SessionFrames`: a session read as a stream holds none of them): single-shot
    /// workers share one reader, a tracking worker reads its own stretch. A frame that
    /// cannot be read again (the file changed since it was opened) stops the run with its error.
    public func run(frames: some SessionFrames, camera: CameraIntrinsics, in directory: URL,
                    progress: (@Sendable (Int) -> Void)? = nil,
                    consume: @escaping @Sendable (Int, FrameOutcome) -> Void) throws -> Double {
        let frameCount = frames.count
        let workerCount = min(workers, max(frameCount, 1))
        let pool = try (0..<workerCount).map(makeWorker)
        let done = Atomic<Int>(0)
        let failure = Locked<(any Error)?>(nil)
        let start = DispatchTime.now().uptimeNanoseconds
        let useGravity = useGravity, location = location

        @Sendable func localize(_ i: Int, _ frame: RecordedSession.Frame, with worker: any FrameLocalizer, prior: Pose?,
                                priorAccuracy: PoseAccuracy? = nil) -> FrameOutcome {
            let result: LocalizationResult
            do {
                let bytes = try [UInt8](Data(contentsOf: RecordedSession.imageURL(of: frame, in: directory)))
                result = try worker.localize(encoded: bytes, intrinsics: camera, prior: prior, priorAccuracy: priorAccuracy,
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
        /// `read()`, or nil once any read failed (the first failure kept).
        @Sendable func reading<T>(_ read: () throws -> T?) -> T? {
            if failure.withLock({ $0 != nil }) { return nil }
            do { return try read() } catch {
                failure.withLock { if $0 == nil { $0 = error } }
                return nil
            }
        }

        switch mode {
        case .singleShot:
            // One reader for all: a worker takes the next frame and its index under the lock.
            let shared = Locked(SharedReader(try frames.reader(from: 0)))
            WorkerThreads.run(count: workerCount) { w in
                while let (i, frame) = reading({ try shared.withLock { try $0.next() } }) {
                    _ = localize(i, frame, with: pool[w], prior: nil)
                }
            }
        case .tracking:
            let runLength = (frameCount + workerCount - 1) / workerCount
            WorkerThreads.run(count: workerCount) { w in
                var tracker = OdometryTracker()
                let first = w * runLength, end = min((w + 1) * runLength, frameCount)
                guard first < end, let next = reading({ try frames.reader(from: first) }) else { return }
                for i in first..<end {
                    guard let frame = reading(next) else { return }
                    let prior = tracker.predict(odometry: frame.odometry)
                    let outcome = localize(i, frame, with: pool[w], prior: prior,
                                           priorAccuracy: tracker.predictAccuracy(odometry: frame.odometry))
                    tracker.update(fix: outcome.result.pose, accuracy: outcome.result.accuracy, odometry: frame.odometry)
                }
            }
        }
        if let error = failure.withLock({ $0 }) { throw error }
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    }
}

/// The reader single-shot workers share, in a class: a closure kept in a lock's value
/// directly would be wrapped in one more reabstraction thunk at every access, until calling
/// it overflowed the stack (at about 12,000 frames).
private final class SharedReader {
    private let read: () throws -> RecordedSession.Frame?
    private var index = 0

    init(_ read: @escaping () throws -> RecordedSession.Frame?) { self.read = read }

    /// The next frame and its index; nil after the last.
    func next() throws -> (Int, RecordedSession.Frame)? {
        guard let frame = try read() else { return nil }
        defer { index += 1 }
        return (index, frame)
    }
}
