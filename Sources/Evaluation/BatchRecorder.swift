import Foundation
import Geodesy
import Geometry
import Support
import VPSModel

/// A batch run's per-frame outcomes, in frame order: an array of them, or what a
/// `BatchRecorder` kept of a long run, each outcome made again when it is read.
public struct FrameOutcomes: RandomAccessCollection, Sendable {
    private let array: [FrameOutcome]?
    private let recorded: BatchRecorder.Store?

    public init(_ outcomes: [FrameOutcome]) { array = outcomes; recorded = nil }
    init(recorded: BatchRecorder.Store) { array = nil; self.recorded = recorded }

    public var startIndex: Int { 0 }
    public var endIndex: Int { array?.count ?? recorded!.records.count }
    public subscript(i: Int) -> FrameOutcome { array?[i] ?? recorded!.outcome(i) }
}

/// Takes a batch run's outcomes as the workers finish them and keeps a few numbers per
/// frame instead of the outcomes: a session of 100,000 frames would otherwise hold its
/// results (kilobytes a frame, with their JSON) until the run ends.
///
/// Each outcome's line of `results.jsonl` is written as soon as the frames before it are
/// (the few that finish early wait in memory, more than `maxWaiting` in a scratch file:
/// tracking mode runs one stretch of the session per worker). What the summary and the
/// report read of a frame — status, pose, section, inliers, matches, reprojection error,
/// reason, timings, accuracy, GeoPose — is kept compactly (strings once each), beside the
/// session's own frames (id, image, time, ground truth); the frames the report can show
/// among its worst (`WorstFrameRetention`) keep their whole outcome, matches included.
/// `outcomes` gives them back as `FrameOutcome`s, equal in all those fields.
public final class BatchRecorder: @unchecked Sendable {
    /// Out-of-order lines held in memory before the scratch file takes them.
    public static let maxWaiting = 512

    /// One frame, compactly.
    struct Record: Sendable {
        var pose = Pose.identity
        var accuracy = PoseAccuracy(position: 0, rotationDegrees: 0)
        var timings = StageTimings()
        var reprojectionError = 0.0
        var inliers: Int32 = 0, matches: Int32 = 0
        /// Indices into `Store.strings` and `Store.geo`, −1 for none.
        var section: Int32 = -1, reason: Int32 = -1, geo: Int32 = -1
        var flags: UInt8 = 0
        static let localized: UInt8 = 1, hasPose: UInt8 = 2, hasAccuracy: UInt8 = 4, usedPrior: UInt8 = 8

        func has(_ flag: UInt8) -> Bool { flags & flag != 0 }
    }

    /// What is left of a run once it is recorded.
    final class Store: Sendable {
        let frames: [RecordedSession.Frame]
        let records: [Record]
        let strings: [String]
        let geo: [(pose: GeoPose, accuracy: PoseAccuracy?)]
        let kept: [Int: FrameOutcome]

        init(frames: [RecordedSession.Frame], records: [Record], strings: [String],
             geo: [(pose: GeoPose, accuracy: PoseAccuracy?)], kept: [Int: FrameOutcome]) {
            self.frames = frames; self.records = records; self.strings = strings; self.geo = geo; self.kept = kept
        }

        func outcome(_ i: Int) -> FrameOutcome {
            if let o = kept[i] { return o }
            let f = frames[i], r = records[i]
            var result = LocalizationResult(
                status: r.has(Record.localized) ? .localized : .rejected, pose: r.has(Record.hasPose) ? r.pose : nil,
                sectionId: r.section >= 0 ? strings[Int(r.section)] : nil, inliers: Int(r.inliers), matches: Int(r.matches),
                reprojectionError: r.reprojectionError, reason: r.reason >= 0 ? strings[Int(r.reason)] : nil,
                usedPrior: r.has(Record.usedPrior), timings: r.timings)
            if r.has(Record.hasAccuracy) { result.accuracy = r.accuracy }
            if r.geo >= 0 { (result.geoPose, result.geoAccuracy) = geo[Int(r.geo)] }
            return FrameOutcome(frameId: f.id, image: f.image, timestamp: f.timestamp, result: result, groundTruth: f.pose)
        }
    }

    private struct State {
        var records: [Record]
        var strings: [String] = []
        var stringIndex: [String: Int32] = [:]
        var geo: [(pose: GeoPose, accuracy: PoseAccuracy?)] = []
        var retention: WorstFrameRetention?
        var kept: [Int: FrameOutcome] = [:]
        /// The next frame whose line `results.jsonl` waits for.
        var next = 0
        var waiting: [Int: Data] = [:]
        var spilled: [Int: (offset: UInt64, count: Int)] = [:]
        var scratch: FileHandle?
        var scratchURL: URL?
        var scratchSize: UInt64 = 0
        var results: BufferedFile
        var failure: (any Error)?

        mutating func intern(_ s: String) -> Int32 {
            if let i = stringIndex[s] { return i }
            let i = Int32(strings.count)
            strings.append(s); stringIndex[s] = i
            return i
        }
    }

    private let state: Locked<State>
    private let frames: [RecordedSession.Frame]

    /// Records a run of `session`, writing `results.jsonl` to `resultsFile` as it goes;
    /// `retention` picks the frames that keep their whole outcome.
    public init(session: RecordedSession, resultsFile: URL, retention: WorstFrameRetention?) throws {
        frames = session.frames
        state = Locked(State(records: [Record](repeating: Record(), count: session.frames.count), retention: retention,
                             results: try BufferedFile(resultsFile)))
    }

    /// Records the run `run` makes of `session` (handing each outcome to the function it
    /// is given), writing `results.jsonl` into `folder` as it goes. Returns the outcomes and
    /// the seconds `run` returns.
    public static func record(_ session: RecordedSession, into folder: URL, retention: WorstFrameRetention?,
                              run: (@escaping @Sendable (Int, FrameOutcome) -> Void) throws -> Double)
        throws -> (outcomes: FrameOutcomes, wallSeconds: Double) {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let recorder = try BatchRecorder(session: session, resultsFile: folder.appendingPathComponent(BatchReport.File.results),
                                         retention: retention)
        let seconds = try run { recorder.record($1, at: $0) }
        return (try recorder.finish(), seconds)
    }

    /// Takes frame `index`'s outcome; callable from any thread, each frame once.
    public func record(_ outcome: FrameOutcome, at index: Int) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let line: Data
        do { line = try encoder.encode(outcome) + [0x0A] } catch {
            state.withLock { if $0.failure == nil { $0.failure = error } }
            return
        }
        let r = outcome.result
        var record = Record()
        record.flags = (r.isLocalized ? Record.localized : 0) | (r.usedPrior ? Record.usedPrior : 0)
        if let p = r.pose { record.pose = p; record.flags |= Record.hasPose }
        if let a = r.accuracy { record.accuracy = a; record.flags |= Record.hasAccuracy }
        record.timings = r.timings
        record.reprojectionError = r.reprojectionError
        record.inliers = Int32(clamping: r.inliers); record.matches = Int32(clamping: r.matches)
        state.withLock { s in
            if let id = r.sectionId { record.section = s.intern(id) }
            if let reason = r.reason { record.reason = s.intern(reason) }
            if let g = r.geoPose { record.geo = Int32(s.geo.count); s.geo.append((g, r.geoAccuracy)) }
            s.records[index] = record
            if s.retention != nil {
                s.kept[index] = outcome
                for j in s.retention!.offer(outcome, at: index) { s.kept[j] = nil }
            }
            do { try Self.write(line, at: index, into: &s) } catch { if s.failure == nil { s.failure = error } }
        }
    }

    /// Writes frame `index`'s line, and the lines of the frames after it that were waiting.
    private static func write(_ line: Data, at index: Int, into s: inout State) throws {
        guard index == s.next else {
            if s.waiting.count < maxWaiting { s.waiting[index] = line; return }
            if s.scratch == nil {
                let url = FileManager.default.temporaryDirectory
                    .appendingPathComponent("arcloud-results-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString)")
                FileManager.default.createFile(atPath: url.path, contents: nil)
                s.scratch = try FileHandle(forUpdating: url); s.scratchURL = url
            }
            try s.scratch!.seekToEnd()
            try s.scratch!.write(contentsOf: line)
            s.spilled[index] = (s.scratchSize, line.count)
            s.scratchSize += UInt64(line.count)
            return
        }
        try s.results.write(line)
        s.next += 1
        while true {
            if let l = s.waiting.removeValue(forKey: s.next) {
                try s.results.write(l)
            } else if let at = s.spilled.removeValue(forKey: s.next) {
                try s.scratch!.seek(toOffset: at.offset)
                try s.results.write(try s.scratch!.read(upToCount: at.count) ?? Data())
            } else {
                break
            }
            s.next += 1
        }
    }

    /// Ends the recording: `results.jsonl` is complete. Returns the outcomes in frame
    /// order (made again from what was kept when read). Throws the first write error.
    public func finish() throws -> FrameOutcomes {
        let store: Store = try state.withLock { s in
            defer {
                try? s.scratch?.close()
                if let url = s.scratchURL { try? FileManager.default.removeItem(at: url) }
                s.scratch = nil; s.scratchURL = nil
            }
            if let failure = s.failure { throw failure }
            try s.results.close()
            guard s.next == s.records.count else {
                throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: "results.jsonl: frame \(s.next) was never recorded"])
            }
            let store = Store(frames: frames, records: s.records, strings: s.strings, geo: s.geo, kept: s.kept)
            s.records = []; s.geo = []; s.kept = [:]
            return store
        }
        return FrameOutcomes(recorded: store)
    }
}

/// A file written through a buffer of about a megabyte: long outputs are written as they
/// are made, never held whole.
final class BufferedFile {
    private let handle: FileHandle
    private var buffer = Data()

    /// Creates (or empties) the file at `url`.
    init(_ url: URL) throws {
        guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path])
        }
        handle = try FileHandle(forWritingTo: url)
    }

    func write(_ data: Data) throws {
        buffer.append(data)
        if buffer.count >= 1 << 20 { try flush() }
    }

    func write(_ text: String) throws { try write(Data(text.utf8)) }

    func flush() throws {
        if !buffer.isEmpty { try handle.write(contentsOf: buffer); buffer.removeAll(keepingCapacity: true) }
    }

    func close() throws { try flush(); try handle.close() }
}
