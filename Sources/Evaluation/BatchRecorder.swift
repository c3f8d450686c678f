import Foundation
import Support
import VPSModel

/// A batch run's per-frame outcomes, in frame order: an array of them, or what a
/// `BatchRecorder` wrote of a long run to its scratch files, each outcome made again when
/// it is read.
public struct FrameOutcomes: RandomAccessCollection, Sendable {
    private let array: [FrameOutcome]?
    private let recorded: RecordedOutcomes?

    public init(_ outcomes: [FrameOutcome]) { array = outcomes; recorded = nil }
    init(recorded: RecordedOutcomes) { array = nil; self.recorded = recorded }

    public var startIndex: Int { 0 }
    public var endIndex: Int { array?.count ?? recorded!.count }
    public subscript(i: Int) -> FrameOutcome { array?[i] ?? recorded!.outcome(i) }
}

/// Takes a batch run's outcomes as the workers finish them and keeps none in memory: a
/// session of 100,000 frames would otherwise hold its results (kilobytes a frame, with their
/// JSON) until the run ends, and even a few numbers a frame grow with the session.
///
/// Each outcome's line of `results.jsonl` is written as soon as the frames before it are
/// (the few that finish early wait in memory, more than `maxWaiting` in a spill file:
/// tracking mode runs one stretch of the session per worker). What the summary and the
/// report read of a frame — status, pose, section, inliers, matches, reprojection error,
/// reason, timings, accuracy, GeoPose, id, image, time, ground truth — goes to a scratch
/// file as one fixed-size `FrameRecord` at the frame's index, its strings to a text file
/// beside (section names and reasons once each, up to `maxSharedStrings` of them); the
/// frames the report can show among its worst (`WorstFrameRetention`) keep their whole
/// outcome, matches included. `outcomes` reads them back as `FrameOutcome`s, equal in all
/// those fields. The scratch files live in the results' folder, unlinked from the moment
/// they are made: nothing is left there, however the run ends.
public final class BatchRecorder: @unchecked Sendable {
    /// Out-of-order lines held in memory before the spill file takes them.
    public static let maxWaiting = 512
    /// Distinct section names and reasons written once and shared: they repeat ("too few
    /// inliers (12 < 15)"); past this many, each is written where it occurs, so a reason
    /// that names each frame's file costs disk, not memory.
    public static let maxSharedStrings = 4096

    private struct State {
        let count: Int
        /// Where the scratch files are made: the results' folder.
        let folder: String
        let records: ScratchFile
        let text: ScratchFile
        var shared: [String: FrameRecord.TextRef] = [:]
        var retention: WorstFrameRetention?
        var kept: [Int: FrameOutcome] = [:]
        /// The next frame whose line `results.jsonl` waits for.
        var next = 0
        var waiting: [Int: Data] = [:]
        var spill: ScratchFile?
        var results: BufferedFile
        var failure: (any Error)?

        /// Where `string` goes in the text file: appended, or where it already is when shared.
        mutating func place(_ string: String, _ kind: FrameRecord.TextKind) throws -> FrameRecord.TextRef {
            let sharable = kind == .section || kind == .reason
            if sharable, let ref = shared[string] { return ref }
            let bytes = Array(string.utf8)
            let ref = FrameRecord.TextRef(offset: try text.append(bytes), length: Int64(bytes.count))
            if sharable, shared.count < BatchRecorder.maxSharedStrings { shared[string] = ref }
            return ref
        }

        /// Frame `i`'s record, or nil when it has not come yet.
        func record(_ i: Int) throws -> FrameRecord? {
            var bytes = [UInt8](repeating: 0, count: FrameRecord.size)
            let n = try bytes.withUnsafeMutableBytes { try records.read(into: $0, at: UInt64(i * FrameRecord.size)) }
            guard n == FrameRecord.size else { return nil }
            let record = bytes.withUnsafeBytes { FrameRecord(from: $0) }
            return record.has(FrameRecord.present) ? record : nil
        }
    }

    private let state: Locked<State>

    /// Records a run of `frameCount` frames, writing `results.jsonl` to `resultsFile` as it
    /// goes and its scratch files beside it; `retention` picks the frames that keep their
    /// whole outcome.
    public init(frameCount: Int, resultsFile: URL, retention: WorstFrameRetention?) throws {
        let folder = resultsFile.deletingLastPathComponent().path
        state = Locked(State(count: frameCount, folder: folder, records: try ScratchFile(in: folder, prefix: "arcloud-records"),
                             text: try ScratchFile(in: folder, prefix: "arcloud-text"), retention: retention,
                             results: try BufferedFile(resultsFile)))
    }

    /// Records a run of `session`'s frames (see `init(frameCount:resultsFile:retention:)`).
    public convenience init(session: RecordedSession, resultsFile: URL, retention: WorstFrameRetention?) throws {
        try self.init(frameCount: session.frames.count, resultsFile: resultsFile, retention: retention)
    }

    /// Records the run `run` makes of `session` (handing each outcome to the function it
    /// is given), writing `results.jsonl` into `folder` as it goes. Returns the outcomes and
    /// the seconds `run` returns.
    public static func record(_ session: RecordedSession, into folder: URL, retention: WorstFrameRetention?,
                              run: (@escaping @Sendable (Int, FrameOutcome) -> Void) throws -> Double)
        throws -> (outcomes: FrameOutcomes, wallSeconds: Double) {
        try record(frameCount: session.frames.count, into: folder, retention: retention, run: run)
    }

    /// Records the run `run` makes of `frameCount` frames, as `record(_:into:retention:run:)`.
    public static func record(frameCount: Int, into folder: URL, retention: WorstFrameRetention?,
                              run: (@escaping @Sendable (Int, FrameOutcome) -> Void) throws -> Double)
        throws -> (outcomes: FrameOutcomes, wallSeconds: Double) {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let recorder = try BatchRecorder(frameCount: frameCount,
                                         resultsFile: folder.appendingPathComponent(BatchReport.File.results),
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
        state.withLock { s in
            do {
                guard index >= 0, index < s.count else {
                    throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: "results.jsonl: frame \(index) is not one of the run's \(s.count)"])
                }
                var record = try FrameRecord(outcome) { try s.place($0, $1) }
                if s.retention != nil {
                    s.kept[index] = outcome
                    for j in s.retention!.offer(outcome, at: index) { s.kept[j] = nil }
                }
                if index != s.next, s.waiting.count >= Self.maxWaiting {
                    if s.spill == nil { s.spill = try ScratchFile(in: s.folder, prefix: "arcloud-results") }
                    record.line = FrameRecord.TextRef(offset: try s.spill!.append(line), length: Int64(line.count))
                }
                var bytes = [UInt8](repeating: 0, count: FrameRecord.size)
                bytes.withUnsafeMutableBytes { record.write(into: $0) }
                try bytes.withUnsafeBytes { try s.records.write($0, at: UInt64(index * FrameRecord.size)) }
                if index == s.next {
                    try Self.write(line, into: &s)
                } else if record.line.length < 0 {
                    s.waiting[index] = line
                }
            } catch {
                if s.failure == nil { s.failure = error }
            }
        }
    }

    /// Writes the next frame's line, and the lines of the frames after it that were waiting.
    private static func write(_ line: Data, into s: inout State) throws {
        try s.results.write(line)
        s.next += 1
        while s.next < s.count {
            if let l = s.waiting.removeValue(forKey: s.next) {
                try s.results.write(l)
            } else if let r = try s.record(s.next), r.line.length >= 0, let spill = s.spill {
                try s.results.write(Data(try spill.read(count: Int(r.line.length), at: r.line.offset)))
            } else {
                break
            }
            s.next += 1
        }
    }

    /// Ends the recording: `results.jsonl` is complete. Returns the outcomes in frame
    /// order (made again from the records when read). Throws the first write error.
    public func finish() throws -> FrameOutcomes {
        let outcomes: RecordedOutcomes = try state.withLock { s in
            defer { s.spill = nil; s.waiting = [:] }
            if let failure = s.failure { throw failure }
            try s.results.close()
            guard s.next == s.count else {
                throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: "results.jsonl: frame \(s.next) was never recorded"])
            }
            try s.text.flush()
            let outcomes = RecordedOutcomes(count: s.count, records: s.records, text: s.text, kept: s.kept)
            s.kept = [:]; s.shared = [:]
            return outcomes
        }
        return FrameOutcomes(recorded: outcomes)
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
