import CommandLineOptions
import Testing

private struct Failure: Error, CustomStringConvertible { var description: String }

private struct MapBuild: Command {
    struct Options: CommandArguments {
        let out = Option.required("out", .text, help: "Where")
        let fail = Flag("fail", help: "Fail")
    }
    static let name = "map build"
    static let summary = "Build"
    static let overview = "USAGE: tool map build --out <file>"
    static func run(_ args: ParsedArguments<Options>) async throws -> Int32 {
        if args.fail { throw Failure(description: "it failed") }
        return args.out == "seven" ? 7 : 0
    }
}

private struct Map: Command {
    struct Options: CommandArguments {}
    static let name = "map"
    static let summary = "Maps"
    static let overview = "USAGE: tool map"
    static func run(_ args: ParsedArguments<Options>) async throws -> Int32 { 3 }
}

private struct TokenList: Command {
    struct Options: CommandArguments {}
    static let name = "token list"
    static let summary = "Tokens"
    static let overview = "USAGE: tool token list"
    static func run(_ args: ParsedArguments<Options>) async throws -> Int32 { 0 }
}

@Suite struct CommandLineToolTests {
    let tool = CommandLineTool(name: "tool", version: "1.0", tagline: "A test tool.",
                               commands: [Map.self, MapBuild.self, TokenList.self])

    @Test func theLongestCommandNameWins() throws {
        let build = try #require(tool.match(["map", "build", "--out", "x"]))
        #expect(build.command.name == "map build" && build.used == 2)
        let map = try #require(tool.match(["map", "inspect"]))
        #expect(map.command.name == "map" && map.used == 1)
        #expect(tool.match(["token"]) == nil && tool.match(["nope"]) == nil)
    }

    @Test func statusesSayHowTheRunEnded() async {
        #expect(await tool.main(["map", "build", "--out", "seven"]) == 7)
        #expect(await tool.main(["map", "build", "--fail", "--out", "x"]) == 1)   // a failure
        #expect(await tool.main(["map", "build"]) == 2)                          // a usage mistake
        #expect(await tool.main(["map", "build", "--help"]) == 0)
        #expect(await tool.main([]) == 2)
        #expect(tool.help.contains("\n  map build   Build\n  token list  Tokens\n"))
        #expect(await tool.main(["--version"]) == 0)
        #expect(await tool.main(["nope"]) == 2)
        // A group word alone lists its subcommands; with --help that is what was asked.
        #expect(await tool.main(["token"]) == 2)
        #expect(await tool.main(["token", "--help"]) == 0)
        #expect(await tool.main(["token", "nope"]) == 2)
    }

    @Test func prepareRunsOnlyBeforeACommand() async {
        var prepared = 0
        _ = await tool.main(["--version"]) { prepared += 1 }
        _ = await tool.main(["map", "build", "--help"]) { prepared += 1 }
        #expect(prepared == 0)
        _ = await tool.main(["map"]) { prepared += 1 }
        #expect(prepared == 1)
    }

    @Test func imageSizesParseAsWidthByHeight() throws {
        struct Sized: CommandArguments { let size = Option("size", .imageSize(sides: 1...100), help: "Size") }
        #expect(try ParsedArguments<Sized>(["--size", "64x48"]).size == ImageSize(width: 64, height: 48))
        #expect(throws: UsageError.self) { try ParsedArguments<Sized>(["--size", "640x48"]) }
    }
}
