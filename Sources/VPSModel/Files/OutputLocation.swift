import Foundation

/// Checks where a command will write before it does any work: a batch that runs for
/// minutes must not fail at the end because `--out` names a file or a folder it cannot
/// write into. Failures are one line naming the option and the path (`Refusal`).
public enum OutputLocation {
    /// Why an output location cannot be written: one line naming the option and the path.
    public struct Refusal: Error, Sendable, CustomStringConvertible {
        public let description: String
        init(_ message: String) { description = message }
    }

    /// Creates the folder `path` (and its parents) when missing and proves a file can be
    /// created in it (by creating and removing one).
    public static func prepareFolder(_ path: String, for option: String) throws {
        let url = URL(fileURLWithPath: path, isDirectory: true)
        switch FileKind(atPath: path) {
        case .directory: break
        case .missing:
            do { try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true) } catch {
                throw Refusal("\(option) '\(path)': cannot create the folder (\(whyNotCreated(url)))")
            }
        case let kind:
            throw Refusal("\(option) '\(path)' is \(kind.phrase), not a folder")
        }
        try probeWrite(in: url, option: option, path: path)
    }

    /// Checks that a file can be written at `path`: it is not a folder (or another
    /// non-regular file), and its folder exists and accepts new files (replacement is
    /// atomic, through a temporary file beside it).
    public static func checkFile(_ path: String, for option: String) throws {
        switch FileKind(atPath: path) {
        case .regular, .missing: break
        case let kind: throw Refusal("\(option) '\(path)' is \(kind.phrase), not a file")
        }
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
        guard FileKind(atPath: folder.path) == .directory else {
            throw Refusal("\(option) '\(path)': the folder \(folder.path) does not exist")
        }
        try probeWrite(in: folder, option: option, path: path)
    }

    private static func probeWrite(in folder: URL, option: String, path: String) throws {
        let probe = folder.appendingPathComponent(".arcloud-write-test-\(getpid())")
        guard FileManager.default.createFile(atPath: probe.path, contents: nil) else {
            throw Refusal("\(option) '\(path)': cannot write in \(folder.path) (read-only or no permission)")
        }
        try? FileManager.default.removeItem(at: probe)
    }

    /// Why `folder` could not be created, from its nearest existing ancestor.
    private static func whyNotCreated(_ folder: URL) -> String {
        var ancestor = folder.deletingLastPathComponent()
        while FileKind(atPath: ancestor.path) == .missing, ancestor.path != "/" {
            ancestor = ancestor.deletingLastPathComponent()
        }
        let kind = FileKind(atPath: ancestor.path)
        return kind == .directory ? "\(ancestor.path) is read-only or not ours" : "\(ancestor.path) is \(kind.phrase), not a folder"
    }
}
