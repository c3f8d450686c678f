/// An import cannot proceed: names the file and line (when there is one) and what is wrong.
public struct DatasetImportError: Error, Sendable, Hashable, CustomStringConvertible {
    public var file: String
    public var line: Int?
    public var message: String

    public init(_ file: String, line: Int? = nil, _ message: String) {
        self.file = file; self.line = line; self.message = message
    }

    public var description: String { line.map { "\(file):\($0): \(message)" } ?? "\(file): \(message)" }
}
