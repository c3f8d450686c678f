/// The last few blocks read of a `ScratchFile`: a pass over a file of records reads each
/// block once, not once per record, and two passes going side by side (a zip of two
/// sequences over the same records) do not evict each other's block.
public struct ScratchBlockCache {
    public let blockSize: Int
    private let capacity: Int
    private var blocks: [(index: UInt64, bytes: [UInt8])] = []

    public init(blockSize: Int = 1 << 16, capacity: Int = 4) {
        self.blockSize = blockSize; self.capacity = max(1, capacity)
    }

    /// `count` bytes at `offset` of `file`, handed to `body`; from the cache when they lie
    /// within one block, else read directly.
    public mutating func withBytes<T>(of file: ScratchFile, count: Int, at offset: UInt64,
                                      _ body: (UnsafeRawBufferPointer) throws -> T) throws -> T {
        let block = offset / UInt64(blockSize), start = Int(offset % UInt64(blockSize))
        guard start + count <= blockSize else { return try file.read(count: count, at: offset).withUnsafeBytes(body) }
        let k: Int
        if let found = blocks.firstIndex(where: { $0.index == block }) {
            k = found
        } else {
            var bytes = [UInt8](repeating: 0, count: blockSize)
            let n = try bytes.withUnsafeMutableBytes { try file.read(into: $0, at: block * UInt64(blockSize)) }
            bytes.removeLast(blockSize - n)
            if blocks.count == capacity { blocks.removeFirst() }
            blocks.append((block, bytes))
            k = blocks.count - 1
        }
        guard start + count <= blocks[k].bytes.count else {
            throw ScratchFile.Failure(description: "scratch file: \(count) bytes at \(offset) are past its end")
        }
        return try blocks[k].bytes.withUnsafeBytes { try body(UnsafeRawBufferPointer(rebasing: $0[start..<start + count])) }
    }

    /// Forgets every block (the file has changed under them).
    public mutating func clear() { blocks.removeAll() }
}
