import CommandLineOptions

// The option library's names, for every file of the tool: command files declare their
// options with them and need no import of their own.
typealias Command = CommandLineOptions.Command
typealias CommandArguments = CommandLineOptions.CommandArguments
typealias ParsedArguments<Declared: CommandArguments> = CommandLineOptions.ParsedArguments<Declared>
typealias Option<Value: Sendable> = CommandLineOptions.Option<Value>
typealias Flag = CommandLineOptions.Flag
typealias Positional<Value: Sendable> = CommandLineOptions.Positional<Value>
typealias ValueParser<Value: Sendable> = CommandLineOptions.ValueParser<Value>
typealias Choice = CommandLineOptions.Choice
typealias DeprecatedAlias = CommandLineOptions.DeprecatedAlias
typealias InvalidValue = CommandLineOptions.InvalidValue
typealias UsageError = CommandLineOptions.UsageError
typealias ImageSize = CommandLineOptions.ImageSize
typealias ProgressReporter = CommandLineOptions.ProgressReporter

/// A failure while doing the work: printed as one line, exit status 1.
struct CommandFailure: Error, CustomStringConvertible {
    let description: String
    init(_ message: String) { description = message }
}
