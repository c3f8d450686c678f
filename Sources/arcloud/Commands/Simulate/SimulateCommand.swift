import Formats
import Foundation
import GraffityARCloud
import Simulation

struct SimulateCommand: Command {
    static let name = "simulate"
    static let summary = "Run a recorded AR session through the SDK port; print states and events as JSON lines"
    static let overview = """
        USAGE: arcloud simulate <session dir> --map <file.vpsmap> [--server <url> --token <token>]
                                [--clock virtual|realtime] [--interval <seconds>]
                                [--script <file>] [--expect <condition>[,<condition>...]]

        Replays a recorded session through GraffityARCloud as an app would: the session
        host loads the map's scene, sends a frame to the VPS every --interval seconds of
        replay time, tracks with the device odometry in between, and plays the session's
        script (timed taps, start/stop navigation, reset, shutdown). Every state snapshot
        and every event is printed on standard output as one JSON line; a summary line
        ends the output (fields: docs/simulate.md).

        Exit status: 0 when the session ends without an error (and every --expect holds),
        1 when it ends with an error (say `invalidAccessToken`) or an expectation fails, or
        when the session cannot be replayed at all (no frames, an invalid camera, a time
        beyond ±1e12 s, more than 10000 script actions), 2 for a usage mistake.
        """

    static let epilogue = """
        EXAMPLES:
          arcloud simulate Datasets/gallery-query-walk --map Maps/gallery.vpsmap \\
              --script Datasets/gallery-query-walk/script.json --expect localized,arrived
          arcloud simulate Datasets/gallery-query-walk --map gallery --server http://127.0.0.1:8080 --token $TOKEN
        """

    struct Options: CommandArguments {
        let session = Positional("session dir")
        let map = Option.required("map", .text.placeholder("<file>"),
                                  help: "The map: localized against in-process (the embedded VPS). With --server, its "
                                      + "name without `.vpsmap` is the map id")
        let server = Option("server", serverParser, help: "Use the arcloud VPS HTTP service at <url> instead")
        let token = Option("token", .text.placeholder("<token>"), help: "Bearer token for --server")
        let clock = Option("clock", .oneOf([
            Choice("virtual", "time moves frame by frame and waits for each VPS answer, so runs are deterministic"),
            Choice("realtime", "frames at their recorded times, requests overlap the replay"),
        ]).placeholder("<clock>"), default: "virtual", help: "How replay time moves")
        let interval = Option("interval", .number(greaterThan: 0, atMost: SessionTime.maxSeconds).placeholder("<seconds>"),
                              default: 1, help: "Replay time between VPS requests")
        let script = Option("script", .text.placeholder("<file>"),
                            help: "Actions to play instead of the session's own script: a JSON array of {\"time\": s, "
                                + "\"action\": {...}} or {\"script\": [...]}; at most 10000 actions and 4 MiB")
        let expect = Option("expect", SimulationExpectation.parser,
                            help: "Conditions on the final state, comma-separated: "
                                + SimulationExpectation.allCases.map(\.rawValue).joined(separator: ", "))
    }

    /// `--server`: an http:// or https:// URL with a host.
    static let serverParser = ValueParser<URL>(placeholder: "<url>") { text in
        guard let url = URL(string: text), let scheme = url.scheme, ["http", "https"].contains(scheme), url.host != nil else {
            throw InvalidValue("needs an http:// or https:// URL")
        }
        return url
    }

    static func run(_ args: ParsedArguments<Options>) async throws -> Int32 {
        let clock = ReplayClock(rawValue: args.clock)!  // one of the words the parser accepts
        if args.server == nil, args.token != nil { throw UsageError("option '--token' needs '--server'") }
        let session = try SessionSimulation.loadSession(args.session, script: args.script)
        let sessionURL = URL(fileURLWithPath: args.session, isDirectory: true)
        try SessionValidator.requireUsable(session, at: sessionURL)
        let configuration = try SessionSimulation.configuration(map: args.map, server: args.server, token: args.token,
                                                                interval: args.interval, clock: clock)
        let outcome = try await SessionSimulation.run(session: session, directory: sessionURL, configuration: configuration,
                                                      clock: clock, expectations: args.expect ?? [])
        FileHandle.standardError.write(Data("arcloud simulate: \(outcome.summary)\n".utf8))
        return outcome.status
    }
}

extension SimulationExpectation {
    /// `--expect a,b`: an unknown condition is a usage mistake.
    static let parser = ValueParser<[SimulationExpectation]>(placeholder: "<list>") { text in
        do { return try parse(text) } catch { throw UsageError("\(error)") }
    }
}
