import Foundation
import Support

/// Values computed from files (a content hash, the sections of a scene), each computed once
/// per file state (device, inode, size, modification time): an unchanged file is never read
/// again, a replaced or rewritten one is. Safe from many threads; one entry per path.
public final class FileDerivedCache<Value: Sendable>: Sendable {
    private let compute: @Sendable (_ path: String) throws -> Value
    private let known = Locked<[String: (state: FileState, value: Value)]>([:])

    /// - Parameter compute: reads the file at the path and derives the value; its errors
    ///   reach the caller and nothing is cached for them.
    public init(_ compute: @escaping @Sendable (_ path: String) throws -> Value) {
        self.compute = compute
    }

    /// The value for the file at `path` as it is now.
    public func value(ofFileAt path: String) throws -> Value {
        try valueAndState(ofFileAt: path).value
    }

    /// The value with the file state it belongs to: a caller that reads the file after this
    /// can compare states to know the value still describes what it read.
    func valueAndState(ofFileAt path: String) throws -> (value: Value, state: FileState) {
        var attempts = 0
        while true {
            let state = try FileState(path: path)
            if let hit = known.withLock({ $0[path] }), hit.state == state { return (hit.value, state) }
            let value = try compute(path)
            attempts += 1
            // The file may have changed while it was read: the value belongs to the state
            // seen before reading only if that state still holds; else read again.
            if (try? FileState(path: path)) == state {
                known.withLock { $0[path] = (state, value) }
                return (value, state)
            }
            if attempts == 3 { return (value, try FileState(path: path)) }
        }
    }
}

/// What identifies one state of a file without reading it: device, inode, size and
/// modification time.
struct FileState: Hashable, Sendable {
    var device: UInt64, inode: UInt64, size: Int64, modifiedSeconds: Int, modifiedNanoseconds: Int

    init(path: String) throws {
        var s = stat()
        guard stat(path, &s) == 0 else {
            throw CocoaError(.fileReadNoSuchFile, userInfo: [NSFilePathErrorKey: path])
        }
        device = UInt64(s.st_dev); inode = UInt64(s.st_ino); size = Int64(s.st_size)
        modifiedSeconds = Int(s.st_mtim.tv_sec); modifiedNanoseconds = Int(s.st_mtim.tv_nsec)
    }
}
