#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A file for data too long to hold in memory and of no use after the process: created in a
/// folder and removed from it at once, so nothing is left behind however the process ends
/// (the data lives as long as the open descriptor, which `deinit` closes).
///
/// Reads and writes go to an offset (`pread`/`pwrite`); `append` adds at the end through a
/// buffer of `appendBuffer` bytes, and a read of bytes still in that buffer sees them. Not
/// safe for concurrent use: callers hold their own lock.
public final class ScratchFile: @unchecked Sendable {
    /// Why a scratch file could not be made, written or read.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    private let descriptor: Int32
    private var pending: [UInt8] = []
    private let appendBuffer: Int
    /// Bytes written to the file itself: `append`'s next byte goes at `flushedSize + pending.count`.
    private var flushedSize: UInt64 = 0

    /// A new, empty scratch file in the folder `folder` (a path), named after `prefix`.
    public init(in folder: String, prefix: String, appendBuffer: Int = 1 << 16) throws {
        var made: Int32 = -1
        var path = ""
        for _ in 0..<8 where made < 0 {
            path = folder + "/." + prefix + "-\(getpid())-\(UInt64.random(in: 0...UInt64.max))"
            made = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        }
        guard made >= 0 else {
            throw Failure(description: "cannot make a scratch file in \(folder): \(String(cString: strerror(errno)))")
        }
        unlink(path)
        descriptor = made
        self.appendBuffer = appendBuffer
    }

    deinit { close(descriptor) }

    /// Bytes in the file, those `append` still buffers included.
    public var size: UInt64 { flushedSize + UInt64(pending.count) }

    /// Writes `bytes` at `offset` (not through the append buffer: at or before `flushedSize`,
    /// or past the end as a sparse gap).
    public func write(_ bytes: UnsafeRawBufferPointer, at offset: UInt64) throws {
        var done = 0
        while done < bytes.count {
            let n = pwrite(descriptor, bytes.baseAddress! + done, bytes.count - done, off_t(offset) + off_t(done))
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { throw Failure(description: "scratch file: write failed: \(String(cString: strerror(errno)))") }
            done += n
        }
        flushedSize = max(flushedSize, offset + UInt64(bytes.count))
    }

    /// Adds `bytes` at the end; returns the offset they start at.
    @discardableResult
    public func append(_ bytes: some Collection<UInt8>) throws -> UInt64 {
        let offset = size
        pending.append(contentsOf: bytes)
        if pending.count >= appendBuffer { try flush() }
        return offset
    }

    /// Writes what `append` buffers.
    public func flush() throws {
        guard !pending.isEmpty else { return }
        let pending = self.pending
        try pending.withUnsafeBytes { b in try write(b, at: flushedSize) }
        self.pending.removeAll(keepingCapacity: true)
    }

    /// Reads up to `buffer.count` bytes at `offset` into `buffer`; returns how many (fewer only at the end).
    public func read(into buffer: UnsafeMutableRawBufferPointer, at offset: UInt64) throws -> Int {
        if offset + UInt64(buffer.count) > flushedSize, !pending.isEmpty { try flush() }
        var done = 0
        while done < buffer.count {
            let n = pread(descriptor, buffer.baseAddress! + done, buffer.count - done, off_t(offset) + off_t(done))
            if n < 0, errno == EINTR { continue }
            guard n >= 0 else { throw Failure(description: "scratch file: read failed: \(String(cString: strerror(errno)))") }
            if n == 0 { break }
            done += n
        }
        return done
    }

    /// `count` bytes at `offset`; throws when the file ends before.
    public func read(count: Int, at offset: UInt64) throws -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        let n = try bytes.withUnsafeMutableBytes { b in try read(into: b, at: offset) }
        guard n == count else { throw Failure(description: "scratch file: \(count) bytes at \(offset) are past its end") }
        return bytes
    }
}
