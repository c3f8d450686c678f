import Foundation
import Locking

/// Content versions of map files: the SHA-256 of the file in hexadecimal. A file is hashed
/// once per state (device, inode, size, modification time), so listing maps does not read
/// every map on every request, while a replaced file gets its new version.
public final class MapContentVersions: Sendable {
    /// What identifies one state of a file without reading it.
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

    private let known = Locked<[String: (state: FileState, version: String)]>([:])

    public init() {}

    /// The version of the file at `path` as it is now.
    public func version(ofFileAt path: String) throws -> String {
        try versionAndState(ofFileAt: path).version
    }

    /// The version with the file state it belongs to: a caller that reads the file after
    /// this can compare states to know the version still describes what it read.
    func versionAndState(ofFileAt path: String) throws -> (version: String, state: FileState) {
        var attempts = 0
        while true {
            let state = try FileState(path: path)
            if let hit = known.withLock({ $0[path] }), hit.state == state { return (hit.version, state) }
            let version = SHA256.hex(try SHA256.hash(fileAt: path))
            attempts += 1
            // The file may have changed while it was hashed: the version belongs to the
            // state seen before hashing only if that state still holds; else hash again.
            if (try? FileState(path: path)) == state {
                known.withLock { $0[path] = (state, version) }
                return (version, state)
            }
            if attempts == 3 { return (version, try FileState(path: path)) }
        }
    }
}
