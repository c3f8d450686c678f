#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A failed file-system call, naming the file and the operating system's reason.
public struct FileSystemError: Error, Sendable, Hashable, CustomStringConvertible {
    public let path: String
    /// The operation that failed, e.g. "rename".
    public let operation: String
    public let errno: Int32

    public init(path: String, operation: String, errno: Int32) {
        self.path = path; self.operation = operation; self.errno = errno
    }

    public var description: String { "\(path): \(operation) failed: \(String(cString: strerror(errno)))" }
}

/// Replaces a file atomically: readers see the old file or the complete new one, never
/// a part, even when the writer crashes or is killed.
///
/// `body` writes the new content to a temporary path beside the target
/// (`<target>.tmp-<pid>`, the same file system, so `rename(2)` is atomic); the file is
/// then flushed to disk (`fsync`), renamed over the target, and the directory entry is
/// flushed too. When `body` throws, the temporary file is removed and the target is left
/// untouched. A killed writer can leave a stale `.tmp-<pid>` file behind, never a
/// damaged target; the next replacement of the same target removes it.
public enum AtomicFileReplacement {
    /// Runs `body` with the temporary path, then moves the result over `target`.
    public static func replace<R>(_ target: String, _ body: (_ temporaryPath: String) throws -> R) throws -> R {
        let tmp = "\(target).tmp-\(getpid())"
        unlink(tmp)
        removeStaleTemporaries(of: target)
        let result: R
        do {
            result = try body(tmp)
            try fsyncFile(tmp)
            if rename(tmp, target) != 0 { throw FileSystemError(path: target, operation: "rename", errno: errno) }
        } catch {
            unlink(tmp)
            throw error
        }
        // The rename is durable only once the directory is flushed; failing here is not
        // fatal (some file systems refuse fsync on directories).
        try? fsyncFile(directory(of: target))
        return result
    }

    /// Removes `<target>.tmp-<pid>` files left by writers that were killed: those whose
    /// process no longer exists. Files of live writers are left alone.
    static func removeStaleTemporaries(of target: String) {
        let dir = directory(of: target)
        let prefix = (target.split(separator: "/").last.map(String.init) ?? target) + ".tmp-"
        guard let d = opendir(dir) else { return }
        defer { closedir(d) }
        while let entry = readdir(d) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            guard name.hasPrefix(prefix), let pid = pid_t(name.dropFirst(prefix.count)), pid > 0 else { continue }
            if kill(pid, 0) != 0 && errno == ESRCH { unlink(dir + "/" + name) }
        }
    }

    static func fsyncFile(_ path: String) throws {
        let fd = open(path, O_RDONLY)
        if fd < 0 { throw FileSystemError(path: path, operation: "open", errno: errno) }
        defer { close(fd) }
        if fsync(fd) != 0 { throw FileSystemError(path: path, operation: "fsync", errno: errno) }
    }

    static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        let d = String(path[..<slash])
        return d.isEmpty ? "/" : d
    }
}
