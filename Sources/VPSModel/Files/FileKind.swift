import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What is at a path (symlinks followed), found without opening it.
///
/// Readers check for `.regular` before opening an input: opening a FIFO blocks until a
/// writer appears (forever, for a reader run on its own), and a device never ends.
public enum FileKind: Sendable, Hashable {
    case regular, directory, fifo, characterDevice, blockDevice, socket, other
    /// Nothing there (or a dangling symlink, or a path that cannot be searched).
    case missing

    public init(atPath path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { self = .missing; return }
        switch info.st_mode & S_IFMT {
        case S_IFREG: self = .regular
        case S_IFDIR: self = .directory
        case S_IFIFO: self = .fifo
        case S_IFCHR: self = .characterDevice
        case S_IFBLK: self = .blockDevice
        case S_IFSOCK: self = .socket
        default: self = .other
        }
    }

    /// "a FIFO", "a directory"…: for messages.
    public var phrase: String {
        switch self {
        case .regular: "a regular file"
        case .directory: "a directory"
        case .fifo: "a FIFO"
        case .characterDevice: "a character device"
        case .blockDevice: "a block device"
        case .socket: "a socket"
        case .other: "not a regular file"
        case .missing: "missing"
        }
    }
}
