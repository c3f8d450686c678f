import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Resolves a file path read from an input file (a session's frame image, a COLMAP
/// model's image name, a TUM list entry) inside the folder the user named.
///
/// Input files are untrusted: a path in them may climb out with `..`, be absolute, or
/// reach elsewhere through a symlink, and a "file" may be a FIFO (opening it blocks
/// forever), a directory or a device. Every reader resolves such paths here, so the rule
/// is the same everywhere: the path must name a regular file whose real path (symlinks
/// resolved) lies inside the real path of the folder.
public enum ContainedPath {
    /// The real URL of the regular file `relative` names inside `folder`.
    ///
    /// - Parameters:
    ///   - relative: the path as written in the input file; relative to `folder`, or
    ///     absolute (accepted only when it lies inside `folder`).
    ///   - folder: the folder the path must stay inside (symlinks in it are resolved too).
    ///   - source: the input file the path was read from, named in the error.
    /// - Throws: `ContainedPathError` naming `source`, the path and what is wrong. The
    ///   file is never opened, so a FIFO cannot block the caller.
    public static func regularFile(_ relative: String, in folder: URL, source: String) throws -> URL {
        func fail(_ reason: ContainedPathError.Reason) -> ContainedPathError {
            ContainedPathError(source: source, path: relative, folder: folder.path, reason: reason)
        }
        guard !relative.isEmpty else { throw fail(.empty) }
        guard !relative.utf8.contains(0) else { throw fail(.outsideFolder) }
        guard let root = realPath(folder.path) else { throw fail(.folderUnreadable) }
        let written = relative.hasPrefix("/") ? relative : folder.path + "/" + relative
        guard let real = realPath(written) else {
            // Say "outside" rather than "missing" for a path that would leave the folder
            // even if it existed: that is the problem to fix in the input file.
            let lexical = URL(fileURLWithPath: written).standardized.path
            let lexicalRoot = URL(fileURLWithPath: folder.path).standardized.path
            throw fail(isInside(lexical, root: lexicalRoot) || isInside(lexical, root: root) ? .missing : .outsideFolder)
        }
        guard isInside(real, root: root) else { throw fail(.outsideFolder) }
        switch FileKind(atPath: real) {
        case .regular: return URL(fileURLWithPath: real)
        case .missing: throw fail(.missing)
        case let kind: throw fail(.notRegularFile(kind: kind.phrase))
        }
    }

    private static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    private static func isInside(_ path: String, root: String) -> Bool {
        path == root || path.hasPrefix(root.hasSuffix("/") ? root : root + "/")
    }
}

/// A path from an input file that `ContainedPath` refused: names the input file, the path
/// as written, and why.
public struct ContainedPathError: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Reason: Sendable, Hashable {
        /// The path is empty.
        case empty
        /// The path (after resolving `..` and symlinks) leaves the folder, or is absolute
        /// and outside it.
        case outsideFolder
        /// Nothing exists at the path.
        case missing
        /// Something exists but is not a regular file (`kind` says what: a FIFO, a directory…).
        case notRegularFile(kind: String)
        /// The folder itself cannot be resolved.
        case folderUnreadable
    }

    /// The input file the path was read from.
    public var source: String
    /// The path as written in `source`.
    public var path: String
    /// The folder the path had to stay inside.
    public var folder: String
    public var reason: Reason

    /// What is wrong with the path, without the source: for callers that name the source
    /// their own way (with a line number, say).
    public var problem: String {
        switch reason {
        case .empty: "empty path"
        case .outsideFolder: "path '\(path)' leaves the folder \(folder); only files inside it are read"
        case .missing: "'\(path)' does not exist in \(folder)"
        case .notRegularFile(let kind): "'\(path)' is \(kind), not a regular file"
        case .folderUnreadable: "folder \(folder) does not exist or cannot be read"
        }
    }

    public var description: String { "\(source): \(problem)" }
}
