/// One `arcloud` command (or a group of subcommands).
protocol Command: Sendable {
    /// The word after `arcloud`, e.g. `localize`, or `map build` for a subcommand.
    static var name: String { get }
    /// One line for `arcloud --help`.
    static var summary: String { get }
    /// The full `--help` text: usage line, options, examples.
    static var help: String { get }
    /// Options that take a value (without `--`).
    static var options: Set<String> { get }
    /// Boolean switches (without `--`).
    static var switches: Set<String> { get }
    /// Runs with parsed arguments; returns the process exit status.
    static func run(_ args: Arguments) async throws -> Int32
}
