import Benchmarks
import Foundation
import Support
import VPSModel
import VPSServer

struct BenchServeCommand: Command {
    static let name = "bench serve"
    static let summary = "Measure the HTTP service: requests/s at several concurrencies against the in-process rate"
    static let overview = """
        USAGE: arcloud bench serve --maps <dir> --map <id> --dataset <session-dir>
                                   [--frames 20] [--requests 100] [--rounds 7] [--concurrency 1,2,4,16]
                                   [--workers N] [--idle-helpers N] [--json]

        Starts the HTTP service on a free loopback port in this process and compares it with
        the same engine called in-process (the same decode, the same localizer settings, the
        same frames: the dataset's first --frames, cycled). The measurements are taken in
        --rounds rounds, each of --requests timed requests per concurrency; every ratio is
        computed within a round, and the figures are medians over the rounds. Each round:
        1. concurrency 1, paired: each frame localized in-process and over HTTP back to back
           (alternating which goes first). Gives the single-thread in-process rate, the HTTP
           rate at concurrency 1 and the median per-frame HTTP overhead;
        2. for each other concurrency c: HTTP with c connections, closed loop, in slices of
           10 x min(c, cores) timed requests (about 0.2 s), each next to a single-thread
           in-process slice of about the same length, alternating which goes first. A
           slice's timed window starts at its c-th answer and ends at the answer that
           completes its count, so neither the threads waking nor the queue draining is in it;
        3. the in-process rate on `cores` threads at once (how much of the machine there was).
        For each concurrency c it prints requests/s and the scaling: requests/s over
        (min(c, cores) x the single-thread rate of the in-process slices interleaved with
        it), so a machine whose speed drifts (other work, a virtual machine's host: about
        10 % within a second here) moves both sides of each ratio alike. The service's
        target is a scaling of at least 0.9 at every concurrency >= cores in every run,
        judged on the run's figure: the median over its rounds. Whether it also held in every round
        is printed too, with the worst round next to each median. The share of CPU time the
        hypervisor took from this machine (steal, /proc/stat) is printed for the whole run,
        the in-process slices and each concurrency's HTTP slices.

        The client is cheap on purpose: each connection sends requests built before the
        run over a kept-alive socket and only looks for the status in the answer. Its CPU is
        measured, and so is the server's, per request, by thread: localization workers
        (queued localizations), libmicrohttpd's connection threads (requests, and the
        localizations they run themselves while a core is free), the rest of the process.
        """

    static let epilogue = """
        Exit status 1 when any request failed; the scaling target is reported, not enforced
        (a machine shared with other work cannot meet it reliably).
        """

    struct Options: CommandArguments {
        let maps = Option.required("maps", .text.placeholder("<dir>"), help: "Directory of .vpsmap files")
        let map = Option.required("map", .text.placeholder("<id>"), help: "Map to localize against")
        let dataset = Option.required("dataset", .text.placeholder("<dir>"), help: "Recorded session whose frames are sent")
        let frames = Option("frames", .integer(in: 1...10_000), default: 20,
                            help: "Frames used, from the start of the session")
        let requests = Option("requests", .integer(in: 1...1_000_000), default: 100,
                              help: "Timed requests per concurrency and round")
        let rounds = Option("rounds", .integer(in: 1...1000), default: 7, help: "Rounds")
        let concurrency = Option("concurrency", .list(of: .integer(in: 1...256)), default: [1, 2, 4, 16],
                                 help: "Comma-separated HTTP concurrencies")
        let workers = Option("workers", .integer(in: 1...256), default: VPSServerConfiguration.defaultWorkers,
                             help: "Server localizations at once", defaultText: "the cores")
        let idleHelpers = Option("idle-helpers", .integer(in: 0...256), default: VPSServerConfiguration.defaultIdleCoreHelpers,
                                 help: "Server idle-core helpers; 0 for none. The in-process side never uses them: its "
                                     + "baseline is one thread", defaultText: "the cores minus one")
        let json = Flag("json", help: "One JSON object instead of text")
    }

    static func run(_ args: ParsedArguments<Options>) async throws -> Int32 {
        let mapsDir = URL(fileURLWithPath: args.maps, isDirectory: true)
        let engine = MapDirectoryEngine(directory: mapsDir)
        guard engine.cache.file(of: args.map) != nil else { throw CommandFailure("no map '\(args.map)' in \(mapsDir.path)") }
        let sessionDir = URL(fileURLWithPath: args.dataset, isDirectory: true)
        let session = try RecordedSession.load(from: sessionDir)
        let frames = try ServeBenchmark.frames(of: session, in: sessionDir, count: args.frames, mapId: args.map)
        guard !frames.isEmpty else { throw CommandFailure("the dataset has no frames") }
        let (server, token) = try ServeBenchmark.startServer(engine: engine, workers: args.workers,
                                                             idleHelpers: args.idleHelpers)
        defer { server.stop() }
        let bench = ServeBenchmark(engine: engine, server: server, token: token, frames: frames, requests: args.requests,
                                   levels: Array(Set(args.concurrency)).sorted(), cores: Cores.available)
        let report = try bench.measure(rounds: args.rounds, mapId: args.map)
        if args.json {
            try printJSON(report)
        } else {
            print(report.text(session: session.name))
        }
        return report.anyRequestFailed ? 1 : 0
    }
}
