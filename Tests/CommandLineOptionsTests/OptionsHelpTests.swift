import CommandLineOptions
import Testing

@Suite struct OptionsHelpTests {
    private struct Server: CommandArguments {
        enum Clock: String, CaseIterable, Sendable { case virtual, realtime }

        let maps = Option.required("maps", .text.placeholder("<dir>"), help: "Directory of .vpsmap files")
        let port = Option("port", .integer(in: 0...65535), default: 8080, help: "Port; 0 picks a free one")
        let workers = Option("workers", .integer(in: 1...256), default: 4, help: "Localizations at once",
                             defaultText: "the cores",
                             deprecatedAliases: [DeprecatedAlias("threads", note: "kept for old scripts")])
        let budget = Option("budget", .number(in: 0.01...3600).placeholder("<seconds>"), default: 12.5,
                            help: "Time budget of one localization, queue wait included; over it the answer is "
                                + "503 time_budget_exceeded at once when queued")
        let connectionsPerClient = Option("max-connections-per-client", .integer(in: 0...100), default: 32,
                                          help: "Open connections per client address")
        let clock = Option("clock", .oneOf(Clock.self) { clock in
            switch clock {
            case .virtual: "time moves frame by frame"
            case .realtime: "frames at their recorded times, requests overlap the replay, as they do on a phone"
            }
        }, default: .virtual, help: "How replay time moves")
        let probeOut = Option("probe-out", .text, help: "Internal", hidden: true)
        let json = Flag("json", help: "One JSON object instead of text")
        let session = Positional("session")
    }

    @Test func theOptionsSectionFollowsTheDeclarations() {
        let expected = """
            OPTIONS:
              --maps <dir>              Directory of .vpsmap files (required)
              --port <n>                Port; 0 picks a free one (default: 8080)
              --workers <n>             Localizations at once (default: the cores)
              --threads <n>             Deprecated alias of --workers, kept for old scripts
              --budget <seconds>        Time budget of one localization, queue wait included; over it
                                        the answer is 503 time_budget_exceeded at once when queued
                                        (default: 12.5)
              --max-connections-per-client <n>
                                        Open connections per client address (default: 32)
              --clock virtual|realtime  How replay time moves (default: virtual)
                                          virtual:  time moves frame by frame
                                          realtime: frames at their recorded times, requests overlap
                                                    the replay, as they do on a phone
              --json                    One JSON object instead of text
            """
        #expect(Server.optionsHelp == expected)
    }

    @Test func everyLineFitsTheWidth() {
        for line in Server.optionsHelp.split(separator: "\n") {
            #expect(line.count <= 90, "\(line)")
            #expect(!line.hasSuffix(" "), "\(line)")
        }
    }

    @Test func aDefaultIsNeverSplitAfterItsColon() {
        struct Tight: CommandArguments {
            // 66 columns of text at column 24: "(default:" ends the first line unless kept whole.
            let wings = Option("wings", .integer(in: 1...40).placeholder("N"), default: 2,
                               help: "building: wings per storey, each a corridor off the hall")
            let name = Option("texture-scale", .number().placeholder("K"), default: 1,
                              help: "Texture density relative to 256 px/m on walls")
        }
        let lines = Tight.optionsHelp.split(separator: "\n")
        #expect(lines.contains { $0.hasSuffix("(default: 2)") }, "\(Tight.optionsHelp)")
        #expect(!lines.contains { $0.hasSuffix("(default:") })
    }

    @Test func aCommandWithoutOptionsHasNoSection() {
        struct Bare: CommandArguments {
            let map = Positional("map")
        }
        #expect(Bare.optionsHelp == "")
    }

    @Test func aWordLongerThanTheLineStandsAlone() {
        struct Long: CommandArguments {
            let x = Option("x", .text.placeholder("<p>"), help: "see " + String(repeating: "a", count: 100) + " there")
        }
        let column = String(repeating: " ", count: 11)
        #expect(Long.optionsHelp == "OPTIONS:\n  --x <p>  see\n\(column)\(String(repeating: "a", count: 100))\n\(column)there")
    }

    @Test func aNameDeclaredTwiceStopsTheProgram() async {
        // A mistake in a command's declarations, found the first time they are read.
        await #expect(processExitsWith: .failure) {
            struct Twice: CommandArguments {
                let a = Flag("x", help: "One")
                let b = Option("x", .text, help: "Two")
            }
            _ = Twice.optionsHelp
        }
    }
}
