import Foundation

/// One command of a `CommandLineTool` (or one subcommand of a group: `map build`).
public protocol Command: Sendable {
    /// The command's options, flags and positionals, each declared once.
    associatedtype Options: CommandArguments
    /// The words after the tool's name, e.g. `localize`, or `map build` for a subcommand.
    static var name: String { get }
    /// One line for the tool's `--help`.
    static var summary: String { get }
    /// The `--help` text before its OPTIONS section: usage lines and what the command does.
    static var overview: String { get }
    /// The `--help` text after its OPTIONS section (examples, notes); none by default.
    static var epilogue: String { get }
    /// Runs with parsed arguments; returns the process exit status.
    static func run(_ args: ParsedArguments<Options>) async throws -> Int32
}

extension Command {
    public static var epilogue: String { "" }

    /// The full `--help` text; its OPTIONS section is made from `Options`.
    public static var help: String {
        [overview, Options.optionsHelp, epilogue].filter { !$0.isEmpty }.joined(separator: "\n\n")
    }

    /// Parses `arguments` (those after the command's name), prints the parser's warnings on
    /// stderr as `<tool> <name>: warning: …` and runs the command. Throws `UsageError` for a
    /// mistake in the arguments.
    public static func main(_ arguments: [String], tool: String) async throws -> Int32 {
        let args = try ParsedArguments<Options>(arguments)
        for warning in args.warnings {
            FileHandle.standardError.write(Data("\(tool) \(name): warning: \(warning)\n".utf8))
        }
        return try await run(args)
    }
}
