import CommandLineOptions
import Testing

/// The declarations of a made-up command, one of each kind the parser knows.
private struct Sample: CommandArguments {
    enum Mode: String, CaseIterable, Sendable { case fast, careful }

    let map = Option.required("map", .text.placeholder("<file>"), help: "The map")
    let session = Positional("session")
    let workers = Option("workers", .integer(in: 1...256), default: 4, help: "Threads",
                         deprecatedAliases: [DeprecatedAlias("threads", note: "kept for old scripts")])
    let features = Option("features", .integer(in: 100...20000), help: "Features per frame")
    let ratio = Option("ratio", .number(greaterThan: 0, atMost: 1), default: 0.8, help: "Ratio")
    let mode = Option("mode", .oneOf(Mode.self), default: .fast, help: "How")
    let sizes = Option("sizes", .list(of: .integer(in: 4...1000)), default: [100, 500], help: "Sizes")
    let seed = Option("seed", .integer(), default: UInt64(1), help: "Seed")
    let json = Flag("json", help: "JSON")
}

private func parse(_ arguments: [String]) throws -> ParsedArguments<Sample> {
    try ParsedArguments<Sample>(arguments)
}

/// The message of the usage error `arguments` make, or nil when they parse.
private func mistake(_ arguments: [String]) -> String? {
    do { _ = try parse(arguments); return nil } catch let e as UsageError { return e.description } catch {
        return "not a usage error: \(error)"
    }
}

@Suite struct ParsingTests {
    @Test func absentOptionsReadTheirDefaultsOrNil() throws {
        let args = try parse(["--map", "m.vpsmap", "walk"])
        #expect(args.map == "m.vpsmap")
        #expect(args.session == "walk")
        #expect(args.workers == 4)
        #expect(args.features == nil)
        #expect(args.ratio == 0.8)
        #expect(args.mode == .fast)
        #expect(args.sizes == [100, 500])
        #expect(args.seed == 1)
        #expect(!args.json)
        #expect(!args.isGiven(\.workers))
        #expect(args.warnings.isEmpty)
    }

    @Test func givenOptionsReadTheirValuesInEitherSpelling() throws {
        let args = try parse(["walk", "--map=m.vpsmap", "--workers", "8", "--features=3000", "--ratio", "0.5",
                              "--mode", "careful", "--sizes", " 4, 1000,", "--seed", "18446744073709551615", "--json"])
        #expect(args.map == "m.vpsmap")
        #expect(args.session == "walk")
        #expect(args.workers == 8)
        #expect(args.isGiven(\.workers))
        #expect(args.features == 3000)
        #expect(args.ratio == 0.5)
        #expect(args.mode == .careful)
        #expect(args.sizes == [4, 1000])
        #expect(args.seed == UInt64.max)
        #expect(args.json)
    }

    @Test func theLastOfARepeatedOptionWins() throws {
        #expect(try parse(["--map", "a", "--map", "b", "s"]).map == "b")
    }

    @Test func afterDoubleDashEverythingIsPositional() throws {
        #expect(try parse(["--map", "m", "--", "--json"]).session == "--json")
        #expect(try parse(["--map", "m", "-"]).session == "-")
        #expect(try parse(["--map", "m", "-3.5"]).session == "-3.5")
        // A value may start with one dash (a negative number), never with two.
        #expect(try parse(["--map", "-m", "s"]).map == "-m")
        #expect(try parse(["--map=--odd", "s"]).map == "--odd")
    }

    @Test func mistakesInTheCommandLineAreOneLineUsageErrors() {
        #expect(mistake(["--map", "m", "s", "--nope"]) == "unknown option '--nope'")
        #expect(mistake(["--map", "m", "s", "-x"]) == "unknown option '-x'")
        #expect(mistake(["s", "--map"]) == "option '--map' needs a value")
        #expect(mistake(["--map", "--json", "s"]) == "option '--map' needs a value, got the option '--json'")
        #expect(mistake(["--map", "m", "s", "--json=yes"]) == "option '--json' takes no value")
        #expect(mistake(["s"]) == "missing required option '--map'")
        #expect(mistake(["--map", "m"]) == "missing argument <session>")
        #expect(mistake(["--map", "m", "s", "t"]) == "unexpected argument 't'")
    }

    @Test func refusedValuesNameTheOptionWhatItNeedsAndWhatItGot() {
        #expect(mistake(["--map", "m", "s", "--workers", "0"]) == "option '--workers' needs a whole number in 1...256, got '0'")
        #expect(mistake(["--map", "m", "s", "--workers", "2.5"]) == "option '--workers' needs a whole number in 1...256, got '2.5'")
        #expect(mistake(["--map", "m", "s", "--ratio", "0"])
                == "option '--ratio' needs a number greater than 0 and at most 1, got '0'")
        #expect(mistake(["--map", "m", "s", "--ratio", "nan"])
                == "option '--ratio' needs a number greater than 0 and at most 1, got 'nan'")
        #expect(mistake(["--map", "m", "s", "--mode", "slow"]) == "option '--mode' must be one of fast|careful, got 'slow'")
        #expect(mistake(["--map", "m", "s", "--seed", "-1"]) == "option '--seed' needs a whole number of at least 0, got '-1'")
        #expect(mistake(["--map", "m", "s", "--sizes", "100,3"])
                == "option '--sizes' needs a comma-separated list of which each item needs a whole number in 4...1000, got '3'")
        #expect(mistake(["--map", "m", "s", "--sizes", ","]) == "option '--sizes' needs a comma-separated list, got ','")
    }

    @Test func aDeprecatedAliasSetsItsOptionWithAWarning() throws {
        let args = try parse(["--map", "m", "s", "--threads", "3"])
        #expect(args.workers == 3)
        #expect(args.isGiven(\.workers))
        #expect(args.warnings == ["'--threads' is deprecated and will be removed; use '--workers'"])
        // Its value is checked as the option's, and the message names the spelling used.
        #expect(mistake(["--map", "m", "s", "--threads", "0"]) == "option '--threads' needs a whole number in 1...256, got '0'")
    }

    @Test func anAliasWithItsOptionIsAMistakeInEitherOrder() {
        let both = "options '--threads' (deprecated) and '--workers' both given: use '--workers' alone"
        #expect(mistake(["--map", "m", "s", "--threads", "3", "--workers", "2"]) == both)
        #expect(mistake(["--map", "m", "s", "--workers", "2", "--threads", "3"]) == both)
    }
}

/// Parsers of one's own: what they throw becomes the option's message.
@Suite struct CustomParserTests {
    struct Failure: Error, CustomStringConvertible { var description: String { "not a direction" } }

    private struct Custom: CommandArguments {
        let size = Option("size", ValueParser<[Int]>(placeholder: "WxH") { text in
            let parts = text.split(separator: "x").compactMap { Int($0) }
            guard parts.count == 2 else { throw InvalidValue("needs WxH") }
            return parts
        }, help: "Size")
        let up = Option("up", ValueParser<String>(placeholder: "<dir>") { _ in throw Failure() }, help: "Up")
        let plan = Option("plan", ValueParser<String>(placeholder: "<p>") { text in
            throw UsageError("option '--plan': '\(text)' is not a plan, and this says why in full")
        }, help: "Plan")
        let items = Positional(zeroOrMore: "item")
    }

    private func mistake(_ arguments: [String]) -> String? {
        do { _ = try ParsedArguments<Custom>(arguments); return nil } catch let e as UsageError { return e.description } catch {
            return "not a usage error: \(error)"
        }
    }

    @Test func invalidValueIsSaidAsWhatTheOptionNeeds() throws {
        #expect(try ParsedArguments<Custom>(["--size", "640x480"]).size == [640, 480])
        #expect(mistake(["--size", "640"]) == "option '--size' needs WxH, got '640'")
    }

    @Test func anotherErrorFollowsTheOptionsName() {
        #expect(mistake(["--up", "sideways"]) == "option '--up': not a direction")
    }

    @Test func aUsageErrorIsPassedOnAsItIs() {
        #expect(mistake(["--plan", "x"]) == "option '--plan': 'x' is not a plan, and this says why in full")
    }

    @Test func aPositionalThatTakesTheRestTakesNoneOrMore() throws {
        #expect(try ParsedArguments<Custom>([]).items == [])
        #expect(try ParsedArguments<Custom>(["a", "--size", "1x2", "b"]).items == ["a", "b"])
    }
}
