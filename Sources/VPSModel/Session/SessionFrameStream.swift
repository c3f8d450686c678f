import Foundation

/// The frames of a `session.json` that `SessionJSONReader` is reading, decoded one at a
/// time from their own bytes when `RecordedSession.init(from:)` comes to them.
///
/// It reaches the decoder through `userInfo` so that the one `init(from:)` keeps deciding
/// what is read in which order, and so which error comes first. Each frame's bytes go to
/// `JSONDecoder` alone (its tree lives while that frame decodes); an error is located in
/// the whole file by putting `frames[i]` before the frame's own path.
///
/// Used on the thread that decodes the session, and only there (hence `@unchecked`).
package final class SessionFrameStream: @unchecked Sendable {
    /// The key of `JSONDecoder.userInfo` under which `RecordedSession.init(from:)` finds the stream.
    package static let userInfoKey = CodingUserInfoKey(rawValue: "arcloud.session-frame-stream")!

    private let source: any JSONByteSource
    private let fileName: String
    private let chunkSize: Int
    /// Where the `frames` array starts (its `[`), how many bytes and elements it has, from the outline.
    var offset: Int?
    var byteCount = 0, count = 0

    /// The fewest bytes a frame that decodes takes, with its comma: `{"id":"","image":"","timestamp":0},`.
    static let minimumFrameBytes = 35

    init(source: any JSONByteSource, fileName: String, chunkSize: Int) {
        self.source = source; self.fileName = fileName; self.chunkSize = chunkSize
    }

    /// When false, `frames(codingPath:)` decodes every frame (so that an error in any comes
    /// where it always came) but keeps none: it notes where every `checkpointInterval`-th
    /// starts instead, for `StreamedSession` to read them again from there.
    var keepsFrames = true
    /// Byte offsets of frames 0, `checkpointInterval`, 2 × `checkpointInterval`, … (when frames are not kept).
    private(set) var checkpoints: [Int] = []
    /// Frames between checkpoints: 8 bytes of offset for every 1,024 frames.
    static let checkpointInterval = 1024

    /// The frames, decoded in order; `codingPath` is where the array is in the session
    /// (`[frames]`), for errors.
    func frames(codingPath: [any CodingKey]) throws -> [RecordedSession.Frame] {
        guard let offset else { return [] }
        var frames: [RecordedSession.Frame] = []
        // Room for every frame at once (growing by doubling would hold up to three times
        // the frames for a moment), but never for more than the array's bytes could hold:
        // three megabytes of `{},` reserve room for 86,000 frames, not a million.
        if keepsFrames { frames.reserveCapacity(min(count, byteCount / Self.minimumFrameBytes + 1)) }
        let decoder = JSONDecoder()
        var index = 0
        try SessionJSONReader.problems(in: source, fileName: fileName) {
            var scanner = JSONScanner(source, from: offset, chunkSize: chunkSize)
            try scanner.elements(depth: 1) { scanner in
                if !keepsFrames, index % Self.checkpointInterval == 0 {
                    _ = try scanner.peek()
                    checkpoints.append(scanner.offset)
                }
                let frame = try Self.decodeFrame(try scanner.value(depth: 2), index: index, decoder: decoder, codingPath: codingPath)
                if keepsFrames { frames.append(frame) }
                index += 1
            }
        }
        return frames
    }

    /// Frame `index` from its bytes; a `DecodingError` located in the whole file, under
    /// `codingPath` (where the frames array is).
    static func decodeFrame(_ bytes: [UInt8], index: Int, decoder: JSONDecoder,
                            codingPath: [any CodingKey]) throws -> RecordedSession.Frame {
        do {
            return try decoder.decode(RecordedSession.Frame.self, from: Data(bytes))
        } catch let e as DecodingError {
            throw e.located(under: codingPath + [FrameIndex(index)])
        }
    }

    /// `frames[i]` in a coding path, spelled as the decoder spells an array index.
    private struct FrameIndex: CodingKey {
        let intValue: Int?
        var stringValue: String { "Index \(intValue ?? 0)" }
        init(_ index: Int) { intValue = index }
        init?(stringValue: String) { return nil }
        init?(intValue: Int) { self.intValue = intValue }
    }
}

private extension DecodingError {
    /// This error with `prefix` before its coding path: a frame decoded alone, located in the file.
    func located(under prefix: [any CodingKey]) -> DecodingError {
        func moved(_ c: Context) -> Context {
            Context(codingPath: prefix + c.codingPath, debugDescription: c.debugDescription, underlyingError: c.underlyingError)
        }
        switch self {
        case let .typeMismatch(type, c): return .typeMismatch(type, moved(c))
        case let .valueNotFound(type, c): return .valueNotFound(type, moved(c))
        case let .keyNotFound(key, c): return .keyNotFound(key, moved(c))
        case let .dataCorrupted(c): return .dataCorrupted(moved(c))
        @unknown default: return self
        }
    }
}
