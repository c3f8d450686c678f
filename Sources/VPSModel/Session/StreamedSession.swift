import Foundation

/// A `session.json` read as a stream: everything but the frames in `header` (its `frames`
/// empty), the frames decoded again from the file each time they are read
/// (`SessionFrames`). What a long session costs in memory is then the offset of every
/// 1,024th frame, not the frames (`RecordedSession.Frame` and its image path: 321 bytes a
/// frame, 32 MB an hour of video).
///
/// Opening it decodes every frame once and keeps none, so a session that `load` refuses is
/// refused here with the same error, before any work is done on it.
public final class StreamedSession: SessionFrames, @unchecked Sendable {
    /// The session without its frames.
    public let header: RecordedSession
    /// How many frames the session has.
    public let count: Int
    // Read with `pread` only: shared by threads, each reader with its own scanner.
    private let source: any JSONByteSource
    private let fileName: String
    private let chunkSize: Int
    /// Offsets of frames 0, `interval`, 2 × `interval`, …
    private let checkpoints: [Int]
    private let interval: Int

    init(header: RecordedSession, count: Int, source: any JSONByteSource, fileName: String, chunkSize: Int,
         checkpoints: [Int], interval: Int) {
        self.header = header; self.count = count; self.source = source; self.fileName = fileName
        self.chunkSize = chunkSize; self.checkpoints = checkpoints; self.interval = interval
    }

    /// Reads the session `session.json` in `url` (the file, or its folder) as a stream.
    /// Throws what `RecordedSession.load(from:)` throws for the same file.
    public static func open(_ url: URL) throws -> StreamedSession {
        try SessionJSONReader.stream(RecordedSession.sessionFile(url))
    }

    public func reader(from start: Int) throws -> () throws -> RecordedSession.Frame? {
        guard start < count else { return { nil } }
        let checkpoint = max(0, start) / interval
        var scanner = JSONScanner(source, from: checkpoints[checkpoint], chunkSize: chunkSize)
        var index = checkpoint * interval
        let decoder = JSONDecoder()
        let codingPath: [any CodingKey] = [FramesKey()]
        let fileName = fileName, source = source, count = count
        func problems<T>(_ body: () throws -> T) throws -> T {
            do {
                return try SessionJSONReader.problems(in: source, fileName: fileName, body)
            } catch let e as DecodingError {
                throw DatasetJSON.problem(from: e, fileName: fileName)
            }
        }
        // A checkpoint is at an element; each element read leaves the scanner at its comma.
        var atElement = true
        // To the first frame wanted: skipped, not decoded.
        try problems {
            while index < start {
                if !atElement { try scanner.take(UInt8(ascii: ",")) }
                try scanner.skipValue(depth: 2)
                atElement = false
                index += 1
            }
        }
        return {
            guard index < count else { return nil }
            return try problems {
                if !atElement { try scanner.take(UInt8(ascii: ",")) }
                let frame = try SessionFrameStream.decodeFrame(try scanner.value(depth: 2), index: index, decoder: decoder,
                                                               codingPath: codingPath)
                atElement = false
                index += 1
                return frame
            }
        }
    }

    /// `frames` in a coding path.
    private struct FramesKey: CodingKey {
        var stringValue: String { "frames" }
        var intValue: Int? { nil }
        init() {}
        init?(stringValue: String) { return nil }
        init?(intValue: Int) { return nil }
    }
}
