import Foundation

/// A tool of commands (`tool <command> [options]`): finds the command whose name's words
/// prefix the arguments longest (`map build` before `map`), answers `--help` and
/// `--version`, lists a group's subcommands when given its word alone, and maps errors to
/// exit statuses: 2 for usage mistakes, 1 for failures, each one line on stderr,
/// `<tool>: <command>: <message>`.
public struct CommandLineTool: Sendable {
    public var name: String
    public var version: String
    /// What the tool is, after its name and version on the first line of its help.
    public var tagline: String
    /// Every command, in the order the help lists them.
    public var commands: [any Command.Type]

    public init(name: String, version: String, tagline: String, commands: [any Command.Type]) {
        self.name = name; self.version = version; self.tagline = tagline; self.commands = commands
    }

    /// The tool's `--help`: usage, every command with its summary, the tool's own options.
    public var help: String {
        """
        \(name) \(version): \(tagline)

        USAGE: \(name) <command> [options]

        COMMANDS:
        \(listing(commands))

        OPTIONS:
          --help       Show this help, or a command's help after its name
          --version    Print the version

        Run `\(name) <command> --help` for a command's options.
        """
    }

    /// Runs what `arguments` (those after the tool's name) ask for and returns the exit
    /// status. `prepare` runs just before a command does (not for help, version or a
    /// mistake in the command's name).
    public func main(_ arguments: [String], prepare: () -> Void = {}) async -> Int32 {
        if arguments.isEmpty || arguments == ["--help"] || arguments == ["-h"] || arguments == ["help"] {
            print(help)
            return arguments.isEmpty ? 2 : 0
        }
        if arguments == ["--version"] { print("\(name) \(version)"); return 0 }
        guard let (command, used) = match(arguments) else { return groupOrUnknown(arguments) }
        let rest = Array(arguments.dropFirst(used))
        if rest.contains("--help") || rest.contains("-h") { print(command.help); return 0 }
        prepare()
        do {
            return try await command.main(rest, tool: name)
        } catch let e as UsageError {
            return fail("\(command.name): \(e.description)", status: 2)
        } catch {
            return fail("\(command.name): \(error)", status: 1)
        }
    }

    /// The command whose name's words prefix `arguments` longest, and how many arguments
    /// its name takes.
    public func match(_ arguments: [String]) -> (command: any Command.Type, used: Int)? {
        commands
            .map { cmd -> (any Command.Type, Int) in
                let words = cmd.name.split(separator: " ").map(String.init)
                return (cmd, Array(arguments.prefix(words.count)) == words ? words.count : 0)
            }
            .filter { $0.1 > 0 }
            .max { $0.1 < $1.1 }
    }

    /// A group word alone (`tool map`) lists its subcommands (status 0 after `--help`, else
    /// 2, and a usage mistake for an unknown subcommand); any other word is an unknown command.
    private func groupOrUnknown(_ arguments: [String]) -> Int32 {
        let group = commands.filter { $0.name.hasPrefix(arguments[0] + " ") }
        guard !group.isEmpty else { return fail("unknown command '\(arguments[0])'; see `\(name) --help`", status: 2) }
        print("USAGE: \(name) \(arguments[0]) <subcommand> [options]\n\nSUBCOMMANDS:")
        print(listing(group))
        let asked = arguments.count > 1 && (arguments[1] == "--help" || arguments[1] == "-h")
        if arguments.count > 1 && !asked { return fail("unknown subcommand '\(arguments[0]) \(arguments[1])'", status: 2) }
        return asked ? 0 : 2
    }

    /// `  name  summary` lines, the names padded to the longest.
    private func listing(_ commands: [any Command.Type]) -> String {
        let width = commands.map { $0.name.count }.max() ?? 0
        return commands.map { "  " + $0.name.padding(toLength: width + 2, withPad: " ", startingAt: 0) + $0.summary }
            .joined(separator: "\n")
    }

    private func fail(_ message: String, status: Int32) -> Int32 {
        FileHandle.standardError.write(Data("\(name): \(message)\n".utf8))
        return status
    }
}
