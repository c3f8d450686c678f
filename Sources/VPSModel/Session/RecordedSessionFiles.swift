import Foundation

extension RecordedSession {
    /// File name of the session description inside a session folder.
    public static let fileName = "session.json"

    /// Reads `session.json` from a session folder (or the file itself).
    ///
    /// Throws a `DatasetProblem` naming the bad field for malformed JSON, an unknown
    /// version or a non-unit quaternion. Does not look at frame files: use
    /// `SessionValidator` for a full check. The file is read a chunk at a time and each
    /// frame decoded on its own (`SessionJSONReader`): what stays in memory is the frames.
    public static func load(from url: URL) throws -> RecordedSession {
        try SessionJSONReader.load(sessionFile(url))
    }

    /// Decodes a session from `session.json` bytes, as `load(from:)` reads the file.
    public static func decode(_ data: Data) throws -> RecordedSession {
        try SessionJSONReader.decode(data, fileName: fileName)
    }

    /// The JSON bytes of this session (sorted keys: the same session always gives the same bytes).
    public func encoded() throws -> Data {
        var data = try DatasetJSON.encoder().encode(self)
        data.append(0x0A)
        return data
    }

    /// Writes `session.json` into `directory` (frame images are the caller's).
    public func write(toDirectory directory: URL) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try encoded().write(to: directory.appendingPathComponent(Self.fileName), options: .atomic)
    }

    /// The file of `frame`'s image for a session stored in `directory`: a regular file
    /// inside `directory` (symlinks resolved), else a `ContainedPathError` naming the frame.
    public static func imageURL(of frame: Frame, in directory: URL) throws -> URL {
        try ContainedPath.regularFile(frame.image, in: directory, source: "\(fileName) frame '\(frame.id)'")
    }

    /// The `session.json` that `url` names: the file itself, or the one in that folder.
    public static func sessionFile(_ url: URL) -> URL {
        url.pathExtension == "json" && !url.hasDirectoryPath ? url : url.appendingPathComponent(fileName)
    }
}
