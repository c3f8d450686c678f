import Foundation

/// Reads a file the user named (on the command line or in another file) only when it is a
/// regular file: `Data(contentsOf:)` on a FIFO blocks until a writer comes, forever for
/// a batch run. Errors are one line naming the path.
public enum RegularFile {
    /// The bytes of the regular file at `url`, when it holds at most `maxBytes`.
    /// - Throws: `RegularFileError` when it is missing, not a regular file, larger than
    ///   `maxBytes` (checked before reading), or unreadable.
    public static func read(_ url: URL, maxBytes: Int = .max) throws -> Data {
        try requireRegular(url)
        if maxBytes < .max, let size = (try? FileManager.default.attributesOfItem(atPath: url.path))?[.size] as? Int,
           size > maxBytes {
            throw RegularFileError(path: url.path, problem: "is \(size) bytes; at most \(maxBytes) are read")
        }
        do { return try Data(contentsOf: url) } catch {
            throw RegularFileError(path: url.path, problem: "cannot be read (\(Self.reason(error)))")
        }
    }

    /// Throws unless `url` names a regular file: the check every reader of a user-named
    /// file makes before opening it.
    /// - Throws: `RegularFileError` when it is missing or not a regular file.
    package static func requireRegular(_ url: URL) throws(RegularFileError) {
        switch FileKind(atPath: url.path) {
        case .regular: return
        case .missing: throw RegularFileError(path: url.path, problem: "does not exist")
        case let kind: throw RegularFileError(path: url.path, problem: "is \(kind.phrase), not a regular file")
        }
    }

    /// The size of the file at `path` in bytes, 0 when it cannot be had (for figures that
    /// report a file's size, never for deciding whether to read it).
    public static func byteCount(atPath path: String) -> Int {
        (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
    }

    /// The UTF-8 text of the regular file at `url`.
    public static func text(_ url: URL) throws -> String {
        let data = try read(url)
        guard let text = String(data: data, encoding: .utf8) else {
            throw RegularFileError(path: url.path, problem: "is not UTF-8 text")
        }
        return text
    }

    /// The system's one-line reason for a failed file operation (`No such file or
    /// directory`), not Foundation's error dump.
    public static func reason(_ error: any Error) -> String {
        let ns = error as NSError
        return (ns.userInfo[NSUnderlyingErrorKey] as? NSError)?.localizedDescription ?? ns.localizedDescription
    }
}

/// A file that `RegularFile` would not read: `path` and what is wrong with it.
public struct RegularFileError: Error, Sendable, Hashable, CustomStringConvertible {
    public var path: String
    /// "does not exist", "is a FIFO, not a regular file"…
    public var problem: String
    public var description: String { "\(path) \(problem)" }
}
