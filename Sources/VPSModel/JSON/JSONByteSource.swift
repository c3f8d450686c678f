import Foundation

/// Where a JSON document's bytes come from, read at any offset a chunk at a time: a reader
/// then holds one chunk, not the document, and can go over a part of it twice.
package protocol JSONByteSource {
    /// Copies up to `buffer.count` bytes from `offset` into `buffer`; how many (0 at the end).
    func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int) throws -> Int
}

extension RegularFileReader: JSONByteSource {}

/// Bytes already in memory (`RecordedSession.decode(_:)`, tests): copied out a chunk at a time.
extension Data: JSONByteSource {
    package func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int) -> Int {
        guard offset >= 0, offset < count else { return 0 }
        let n = Swift.min(buffer.count, count - offset)
        withUnsafeBytes { buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: $0[offset..<offset + n])) }
        return n
    }
}
