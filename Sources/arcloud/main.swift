import Foundation
import Vision

/// Entry point: finds the longest command name that prefixes the arguments
/// (`map build` before `map`), handles `--help` / `--version`, and maps errors to exit codes:
/// 2 for usage mistakes (one line on stderr), 1 for failures.
func topLevelHelp() -> String {
    let width = allCommands.map { $0.name.count }.max() ?? 0
    let lines = allCommands.map { "  " + $0.name.padding(toLength: width + 2, withPad: " ", startingAt: 0) + $0.summary }
    return """
        arcloud \(arcloudVersion): VPS localization service and AR cloud session simulator.

        USAGE: arcloud <command> [options]

        COMMANDS:
        \(lines.joined(separator: "\n"))

        OPTIONS:
          --help       Show this help, or a command's help after its name
          --version    Print the version

        Run `arcloud <command> --help` for a command's options.
        """
}

func fail(_ message: String, code: Int32) -> Never {
    FileHandle.standardError.write(Data("arcloud: \(message)\n".utf8))
    exit(code)
}

let argv = Array(CommandLine.arguments.dropFirst())
if argv.isEmpty || argv == ["--help"] || argv == ["-h"] || argv == ["help"] {
    print(topLevelHelp())
    exit(argv.isEmpty ? 2 : 0)
}
if argv == ["--version"] { print("arcloud \(arcloudVersion)"); exit(0) }

// Longest match of the command's words against the leading arguments.
let match = allCommands
    .map { cmd -> (any Command.Type, Int) in
        let words = cmd.name.split(separator: " ").map(String.init)
        return (cmd, Array(argv.prefix(words.count)) == words ? words.count : 0)
    }
    .filter { $0.1 > 0 }
    .max { $0.1 < $1.1 }

guard let (command, used) = match else {
    // A group word alone (`arcloud map`) lists its subcommands.
    let group = allCommands.filter { $0.name.hasPrefix(argv[0] + " ") }
    if !group.isEmpty {
        let w = group.map { $0.name.count }.max() ?? 0
        print("USAGE: arcloud \(argv[0]) <subcommand> [options]\n\nSUBCOMMANDS:")
        for c in group { print("  " + c.name.padding(toLength: w + 2, withPad: " ", startingAt: 0) + c.summary) }
        let asked = argv.count > 1 && (argv[1] == "--help" || argv[1] == "-h")
        if argv.count > 1 && !asked { fail("unknown subcommand '\(argv[0]) \(argv[1])'", code: 2) }
        exit(asked ? 0 : 2)
    }
    fail("unknown command '\(argv[0])'; see `arcloud --help`", code: 2)
}
let rest = Array(argv.dropFirst(used))
if rest.contains("--help") || rest.contains("-h") { print(command.help); exit(0) }

// Every command that works on images already spreads frames, keyframes or requests over
// the cores; OpenCV's own worker pool inside each call would only wait and contend, and
// `bench` figures say "1 thread", which must be true.
openCVThreads = 1

do {
    exit(try await command.main(rest))
} catch let e as UsageError {
    fail("\(command.name): \(e.description)", code: 2)
} catch {
    fail("\(command.name): \(error)", code: 1)
}
