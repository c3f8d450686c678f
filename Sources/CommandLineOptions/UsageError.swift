/// A mistake in how a command was called: a tool prints it as one line and exits with
/// status 2 (a failure while doing the work is another kind of error, status 1).
public struct UsageError: Error, CustomStringConvertible, Equatable, Sendable {
    public let description: String
    public init(_ message: String) { description = message }
}

/// Why a value given to an option was refused, as a predicate on the option:
/// `InvalidValue("needs WxH")` reads "option '--size' needs WxH, got '12'".
/// `ValueParser`s throw it; the parser adds the option's spelling and the text given.
public struct InvalidValue: Error, Sendable {
    /// What the option needs, e.g. "needs a whole number in 1...256".
    public let predicate: String
    /// The part of the value that was wrong (one item of a list); the whole text when nil.
    public let got: String?

    public init(_ predicate: String, got: String? = nil) {
        self.predicate = predicate
        self.got = got
    }
}
