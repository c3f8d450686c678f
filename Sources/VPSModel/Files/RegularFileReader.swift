import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A regular file held open for reads at any offset: for readers that walk a large file a
/// chunk at a time rather than hold all of it (`RegularFile.read`).
///
/// Only a regular file is opened, as `RegularFile.read` does and with its one-line errors:
/// the path is checked first, then the descriptor (the open does not block, so a FIFO put
/// in its place meanwhile is refused, not waited on). Every read goes to the file that was
/// opened, even if the path is replaced meanwhile (an atomic rewrite), so two passes over it
/// see the same bytes.
package final class RegularFileReader {
    package let url: URL
    private let descriptor: Int32

    /// Opens the regular file at `url`.
    /// - Throws: `RegularFileError` when it is missing, not a regular file, or cannot be opened.
    package init(_ url: URL) throws(RegularFileError) {
        self.url = url
        try RegularFile.requireRegular(url)
        let fd = open(url.path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { throw Self.failure(url, errno) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            close(fd)
            throw RegularFileError(path: url.path, problem: "is not a regular file")
        }
        descriptor = fd
    }

    deinit { close(descriptor) }

    /// Copies up to `buffer.count` bytes from `offset` into `buffer`; how many (0 at the end).
    package func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int) throws(RegularFileError) -> Int {
        guard let base = buffer.baseAddress, !buffer.isEmpty else { return 0 }
        while true {
            let n = pread(descriptor, base, buffer.count, off_t(offset))
            if n >= 0 { return n }
            if errno != EINTR { throw Self.failure(url, errno) }
        }
    }

    private static func failure(_ url: URL, _ code: Int32) -> RegularFileError {
        RegularFileError(path: url.path, problem: "cannot be read (\(String(cString: strerror(code))))")
    }
}
