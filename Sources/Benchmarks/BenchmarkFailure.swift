/// A benchmark cannot go on: the message says why (the command prints it and exits 1).
public struct BenchmarkFailure: Error, Sendable, CustomStringConvertible {
    public let description: String
    public init(_ message: String) { description = message }
}
