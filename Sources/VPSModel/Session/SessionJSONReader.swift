import Foundation

/// Reads `session.json` without building its JSON tree: how `RecordedSession.load(from:)`
/// and `RecordedSession.decode(_:)` read.
///
/// `JSONDecoder` on the whole file held the bytes and an index of every value until the
/// last frame was decoded, about 1.4 KB a frame; an hour of phone video is 100,000 frames.
/// Here `JSONScanner` goes over the bytes (from the file, a chunk at a time) twice:
///
/// 1. the outline: the whole document's syntax is checked, the frames are counted, the
///    offset of the `frames` array is noted, and the other members the session reads are
///    kept as a small document of their own (`frames` in it is `[]`; members no reader
///    reads are left out);
/// 2. the frames: `RecordedSession.init(from:)` decodes that outline as it always decoded
///    the whole file, and where it comes to `frames`, `SessionFrameStream` decodes each
///    frame from its own bytes into an array sized by the count.
///
/// So errors come in the order they always did, from the same decoder, located alike
/// (`session.json: frames[3].pose.q`); what is held is the decoded frames, one chunk, and
/// one frame's JSON with its decoder's tree. A syntax error names its line and column.
/// Stricter than the whole-file decoder in two ways, both refusals of files no writer of
/// sessions makes: JSON that Foundation lets through (`JSONScanner` lists it), and a
/// member the session reads that appears twice.
package enum SessionJSONReader {
    /// Largest chunk read at a time.
    static let chunkSize = 1 << 16

    /// The members of `session.json` that `RecordedSession` reads.
    private static let readKeys: Set<String> = ["version", "name", "camera", "frames", "script", "georeference"]

    /// Reads the session in the file `file`. Throws a `DatasetProblem`.
    package static func load(_ file: URL) throws -> RecordedSession {
        let reader: RegularFileReader
        do { reader = try RegularFileReader(file) } catch {
            throw DatasetProblem(.unreadableFile, at: file.lastPathComponent, "\(error)")
        }
        return try decode(reader, fileName: file.lastPathComponent)
    }

    /// Reads a session from `source`; `fileName` names it in errors. Throws a `DatasetProblem`.
    package static func decode(_ source: any JSONByteSource, fileName: String,
                               chunkSize: Int = chunkSize) throws -> RecordedSession {
        let frames = SessionFrameStream(source: source, fileName: fileName, chunkSize: chunkSize)
        let outline = try problems(in: source, fileName: fileName) {
            try self.outline(of: source, fileName: fileName, chunkSize: chunkSize, frames: frames)
        }
        return try DatasetJSON.decode(RecordedSession.self, from: outline, fileName: fileName,
                                      supportedVersion: RecordedSession.currentVersion,
                                      userInfo: [SessionFrameStream.userInfoKey: frames])
    }

    /// Reads the session in the file `file` as a stream (`StreamedSession`): every frame is
    /// decoded once, so the errors are `load`'s, but none is kept. Throws a `DatasetProblem`.
    package static func stream(_ file: URL, chunkSize: Int = chunkSize) throws -> StreamedSession {
        let reader: RegularFileReader
        do { reader = try RegularFileReader(file) } catch {
            throw DatasetProblem(.unreadableFile, at: file.lastPathComponent, "\(error)")
        }
        return try stream(reader, fileName: file.lastPathComponent, chunkSize: chunkSize)
    }

    /// Reads a session from `source` as a stream; `fileName` names it in errors.
    package static func stream(_ source: any JSONByteSource, fileName: String,
                               chunkSize: Int = chunkSize) throws -> StreamedSession {
        let frames = SessionFrameStream(source: source, fileName: fileName, chunkSize: chunkSize)
        frames.keepsFrames = false
        let outline = try problems(in: source, fileName: fileName) {
            try self.outline(of: source, fileName: fileName, chunkSize: chunkSize, frames: frames)
        }
        let header = try DatasetJSON.decode(RecordedSession.self, from: outline, fileName: fileName,
                                            supportedVersion: RecordedSession.currentVersion,
                                            userInfo: [SessionFrameStream.userInfoKey: frames])
        return StreamedSession(header: header, count: frames.offset == nil ? 0 : frames.count, source: source,
                               fileName: fileName, chunkSize: chunkSize, checkpoints: frames.checkpoints,
                               interval: SessionFrameStream.checkpointInterval)
    }

    /// The top-level members the session reads, but for the frames, as a JSON document;
    /// notes in `frames` where the frames array is and how many it holds.
    private static func outline(of source: any JSONByteSource, fileName: String, chunkSize: Int,
                                frames: SessionFrameStream) throws -> Data {
        var scanner = JSONScanner(source, from: try byteOrderMarkLength(source), chunkSize: chunkSize)
        var outline: [UInt8] = []
        switch try scanner.peek() {
        case UInt8(ascii: "{"):
            var seen: Set<String> = []
            outline.append(UInt8(ascii: "{"))
            try scanner.members(depth: 0) { scanner, rawKey in
                let key = try name(rawKey, fileName: fileName)
                guard readKeys.contains(key) else { return try scanner.skipValue(depth: 1) }
                guard seen.insert(key).inserted else {
                    throw DatasetProblem(.malformedJSON, at: "\(fileName): \(key)", "the member appears more than once")
                }
                if outline.count > 1 { outline.append(UInt8(ascii: ",")) }
                outline += rawKey
                outline.append(UInt8(ascii: ":"))
                if key == "frames", try scanner.peek() == UInt8(ascii: "[") {
                    let start = scanner.offset
                    try scanner.elements(depth: 1) { scanner in
                        try scanner.skipValue(depth: 2)
                        frames.count += 1
                    }
                    frames.offset = start
                    frames.byteCount = scanner.offset - start
                    outline += Array("[]".utf8)
                } else {
                    outline += try scanner.value(depth: 1)
                }
            }
            outline.append(UInt8(ascii: "}"))
        case UInt8(ascii: "["):
            // Not a session: the decoder says it found an array, whatever its elements.
            try scanner.skipValue(depth: 0)
            outline = Array("[]".utf8)
        default:
            outline = try scanner.value(depth: 0)
        }
        try scanner.expectEnd()
        return Data(outline)
    }

    /// 3 when the document starts with a UTF-8 byte order mark (RFC 8259 lets a reader skip it), else 0.
    private static func byteOrderMarkLength(_ source: any JSONByteSource) throws -> Int {
        var head: [UInt8] = [0, 0, 0]
        let n = try head.withUnsafeMutableBytes { try source.read(into: $0, at: 0) }
        return n == 3 && head == [0xEF, 0xBB, 0xBF] ? 3 : 0
    }

    /// A key as written (quotes and escapes included) as the string it stands for.
    private static func name(_ raw: [UInt8], fileName: String) throws -> String {
        guard raw.contains(UInt8(ascii: "\\")) else { return String(decoding: raw.dropFirst().dropLast(), as: UTF8.self) }
        // Escapes are rare in keys: the decoder that reads the outline unescapes them too.
        guard let key = try? JSONDecoder().decode(String.self, from: Data(raw)) else {
            throw DatasetProblem(.malformedJSON, at: fileName,
                                 "The given data was not valid JSON: the key \(String(decoding: raw, as: UTF8.self)) is not text")
        }
        return key
    }

    /// `body`, its syntax and read errors made the `DatasetProblem`s a reader reports.
    static func problems<T>(in source: any JSONByteSource, fileName: String, _ body: () throws -> T) throws -> T {
        do { return try body() } catch let e as JSONSyntaxError {
            let at = try? JSONScanner.lineAndColumn(of: e.offset, in: source)
            let place = at.map { " at line \($0.line), column \($0.column)" } ?? " at byte \(e.offset)"
            throw DatasetProblem(.malformedJSON, at: fileName, "The given data was not valid JSON: \(e.reason)\(place).")
        } catch let e as RegularFileError {
            throw DatasetProblem(.unreadableFile, at: fileName, "\(e)")
        }
    }
}
