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
        // The README lists this version's changes under its number (dependents pin it).
        let number = version.stdout.dropFirst("arcloud ".count).trimmingCharacters(in: .whitespacesAndNewlines)
        let readme = try String(contentsOf: ArcloudProcess.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        #expect(readme.contains("\n## Changes in \(number)\n"), "README.md has no '## Changes in \(number)' section")
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

    @Test func unknownCommandExitsTwo() throws {
        let r = try ArcloudProcess.run(["frobnicate"])
        #expect(r.status == 2)
        #expect(r.stderr.contains("unknown command"))
    }
}
