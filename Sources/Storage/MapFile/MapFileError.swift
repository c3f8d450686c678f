/// Why a map file could not be opened or written. `description` names the file.
public struct MapFileError: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Reason: Sendable, Hashable {
        /// No file at that path.
        case missing
        /// The file exists but is not an arcloud map (empty, not SQLite, another SQLite file).
        case notAMap(String)
        /// A map written by a newer arcloud: this build cannot read it.
        case newerFormat(found: Int, supported: Int)
        /// A map whose structure or content is damaged (truncated, corrupt pages, contradictions).
        case corrupt(String)
        /// Reading or writing failed for another reason (permissions, disk full…).
        case io(String)
    }

    public let path: String
    public let reason: Reason

    public init(path: String, reason: Reason) { self.path = path; self.reason = reason }

    public var description: String {
        switch reason {
        case .missing: "\(path): no such map file"
        case .notAMap(let why): "\(path): not an arcloud map (\(why))"
        case let .newerFormat(found, supported):
            "\(path): map format version \(found) is newer than this build reads (\(supported)); update arcloud"
        case .corrupt(let why): "\(path): the map is damaged (\(why)); rebuild it with `arcloud map build`"
        case .io(let why): "\(path): \(why)"
        }
    }
}
