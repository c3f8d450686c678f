import Testing
import Foundation

/// The CLI contract: every command has accurate `--help`, usage mistakes exit 2 with one line.
@Suite struct CommandLineTests {
    /// Command names as `arcloud --help` lists them.
    static func commands() throws -> [String] {
        let help = try ArcloudProcess.run(["--help"]).stdout
        guard let start = help.range(of: "COMMANDS:\n"), let end = help.range(of: "\n\nOPTIONS:") else { return [] }
        return help[start.upperBound..<end.lowerBound].split(separator: "\n").map { line in
            // "  map build   Build a map…": the name is the words before the two-space gap.
            let trimmed = line.drop { $0 == " " }
            return String(trimmed[..<(trimmed.range(of: "  ")?.lowerBound ?? trimmed.endIndex)])
        }
    }

    @Test func topLevelHelpAndVersion() throws {
        let help = try ArcloudProcess.run(["--help"])
        #expect(help.status == 0)
        #expect(help.stdout.contains("USAGE: arcloud <command>"))
        let version = try ArcloudProcess.run(["--version"])
        #expect(version.status == 0)
        #expect(version.stdout.hasPrefix("arcloud "))
        // CHANGELOG.md lists this version's changes under its number (dependents pin it).
        let number = version.stdout.dropFirst("arcloud ".count).trimmingCharacters(in: .whitespacesAndNewlines)
        let changelog = try String(contentsOf: ArcloudProcess.packageRoot.appendingPathComponent("CHANGELOG.md"), encoding: .utf8)
        #expect(changelog.contains("\n## [\(number)]\n"), "CHANGELOG.md has no '## [\(number)]' section")
        #expect(try !Self.commands().isEmpty)
    }

    @Test func everyCommandHasAccurateHelp() throws {
        for name in try Self.commands() {
            let r = try ArcloudProcess.run(name.split(separator: " ").map(String.init) + ["--help"])
            #expect(r.status == 0, "\(name) --help exited \(r.status)")
            #expect(r.stdout.contains("USAGE: arcloud \(name)"), "\(name) --help has no usage line")
        }
    }

    @Test func unknownFlagsExitTwoWithOneLine() throws {
        for name in try Self.commands() {
            let r = try ArcloudProcess.run(name.split(separator: " ").map(String.init) + ["--no-such-flag"])
            #expect(r.status == 2, "\(name) --no-such-flag exited \(r.status)")
            #expect(r.stderr.split(separator: "\n").count == 1, "\(name): \(r.stderr)")
        }
    }

    /// Every option a command's help lists is one its parser knows, and one listed without a
    /// value takes none: all of them, then `--no-such-flag`, fail on that flag and on nothing
    /// before it (so the command never runs). A deprecated alias goes alone, as it may not
    /// come with its option.
    @Test func everyOptionInTheHelpIsAccepted() throws {
        for name in try Self.commands() {
            let words = name.split(separator: " ").map(String.init)
            let help = try ArcloudProcess.run(words + ["--help"]).stdout
            let section = help.components(separatedBy: "\nOPTIONS:\n").dropFirst().first?
                .components(separatedBy: "\n\n").first ?? ""
            var together: [String] = [], alone: [[String]] = []
            for line in section.split(separator: "\n") where line.hasPrefix("  --") {
                // "  --name <value>  Help…" takes a value; "  --name  Help…" does not.
                let fields = line.dropFirst(2).split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
                let option = [String(fields[0])] + (fields.count > 1 && !fields[1].isEmpty ? ["1"] : [])
                if line.contains("Deprecated alias of") { alone.append(option) } else { together += option }
            }
            for arguments in [together] + alone {
                let r = try ArcloudProcess.run(words + arguments + ["--no-such-flag"])
                #expect(r.status == 2 && r.stderr.contains("unknown option '--no-such-flag'"), "\(name) \(arguments): \(r.stderr)")
            }
        }
    }

    @Test func unknownCommandExitsTwo() throws {
        let r = try ArcloudProcess.run(["frobnicate"])
        #expect(r.status == 2)
        #expect(r.stderr.contains("unknown command"))
    }
}
