/// Where a JSON document stops being JSON, and why: `offset` counts bytes from the start
/// of the document; `reason` reads "unexpected character '}'", "unexpected end of file"…
///
/// The scanner knows only the offset; a reader that reports the error to a user turns it
/// into a line and column (`JSONScanner.lineAndColumn(of:in:)`), which costs a second
/// look at the bytes before it, paid only when there is an error.
package struct JSONSyntaxError: Error, Sendable, Hashable, CustomStringConvertible {
    package var offset: Int
    package var reason: String

    package init(offset: Int, _ reason: String) {
        self.offset = offset; self.reason = reason
    }

    package var description: String { "\(reason) at byte \(offset)" }
}
