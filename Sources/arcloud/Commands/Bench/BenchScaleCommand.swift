import Benchmarks
import Foundation
import VPSModel

struct BenchScaleCommand: Command {
    static let name = "bench scale"
    static let summary = "Benchmark map build, load, memory, recall and latency as a venue map grows"
    static let overview = """
        USAGE: arcloud bench scale [--sizes 30k,300k,1M] [--work out/bench-scale] [--fresh] [--json]
                                   [--baseline-map Maps/gallery.vpsmap]
                                   [--baseline-walk Datasets/gallery-query-walk]
                                   [--baseline-hard Datasets/gallery-query-hard]

        Builds maps of a synthetic building (`dataset synth --layout building`: look-alike
        rooms with the same floors, ceilings, posters and doors) at each size and reports,
        per map:
          build      map build time (wall) and peak resident memory of the build process
          file       map file size; load time (VPSMap.load) and ready time (plus the
                     localizer's index); resident memory the loaded, indexed map adds (RSS
                     growth in a fresh process) and per point; heap growth, which is what
                     `serve --map-cache-mb` counts
          recall     share of frames within (5 cm, 2°) of the ground truth, on a walk and on
                     a hard session (fast, shaky, dimming light) in the first wing of the
                     ground floor, single-shot and tracking
          wrong      frames accepted more than 25 cm or 5° from the ground truth, over all
                     four runs (a wrong registration is worse than none: AR content lands in
                     the wrong place)
          stages     median milliseconds per frame of each localizer stage, single-shot and
                     tracking, one thread
          ratio      single-shot median time per frame over that on the baseline map (the
                     one-gallery map and its walk and hard sessions), measured in the same
                     process, a frame of each in turn (so load from other work on the machine
                     weighs on both alike)
        Every map is built and measured in a child process of its own (its peak memory is
        the kernel's count for that process alone). A stage that fails is reported as failed
        and the other sizes still run. Sessions are generated into --work once and reused
        while their arguments match (--fresh regenerates them, e.g. after the generator
        changed); maps are built on every run. Build in release for meaningful figures:
          swift build -c release && .build/release/arcloud bench scale
        """

    struct Options: CommandArguments {
        // A constant the parser accepts: every `--help` of this command reads it.
        let sizes = Option("sizes", ScaleSize.parser, default: try! ScaleSize.parse("30k,300k,1M"),
                           help: "Comma-separated sizes: a target point count (30k, 300k, 1M; the building is chosen "
                               + "to come near it, rooms of about 8 k points, wings of six rooms) or a building FxWxR "
                               + "(floors x wings x rooms per wing)")
        let work = Option("work", .text.placeholder("DIR"), default: "out/bench-scale",
                          help: "Sessions, maps and logs")
        let fresh = Flag("fresh", help: "Regenerate the sessions even when they exist")
        let json = Flag("json", help: "Print the figures as one JSON document instead of tables")
        let baselineMap = Option("baseline-map", .text.placeholder("F"), default: "Maps/gallery.vpsmap",
                                 help: "The one-gallery map")
        let baselineWalk = Option("baseline-walk", .text.placeholder("D"), default: "Datasets/gallery-query-walk",
                                  help: "Its walk session")
        let baselineHard = Option("baseline-hard", .text.placeholder("D"), default: "Datasets/gallery-query-hard",
                                  help: "Its hard session")
        let probe = Flag("probe", help: "Internal: measure one map (--map, --walk, --hard; with --baseline-map, its "
                             + "sessions in turn) in this process and write the figures as JSON to --probe-out; the "
                             + "benchmark runs itself so for every map")
        // What --probe measures: the benchmark passes them to itself.
        let map = Option("map", .text, help: "The map to measure", hidden: true)
        let walk = Option("walk", .text, help: "Its walk session", hidden: true)
        let hard = Option("hard", .text, help: "Its hard session", hidden: true)
        let probeOut = Option("probe-out", .text, help: "The report to write", hidden: true)
    }

    static func run(_ args: ParsedArguments<Options>) async throws -> Int32 {
        if args.probe { return try probe(args) }
        for (option, value) in [("map", args.map), ("walk", args.walk), ("hard", args.hard), ("probe-out", args.probeOut)]
        where value != nil {
            throw UsageError("option '--\(option)' goes with --probe")
        }
        let baseline = ScaleBenchmark.Baseline(map: args.baselineMap, walk: args.baselineWalk, hard: args.baselineHard)
        try baseline.check()
        let work = URL(fileURLWithPath: args.work, isDirectory: true)
        try OutputLocation.prepareFolder(work.path, for: "--work")
        let bench = ScaleBenchmark(sizes: args.sizes, work: work, fresh: args.fresh, baseline: baseline)
        let results = try bench.run { FileHandle.standardError.write(Data("bench scale: \($0)\n".utf8)) }
        if args.json {
            try printJSON(ScaleSummary(results: results))
        } else {
            print(ScaleTables.render(results))
        }
        return results.contains { $0.failure != nil } ? 1 : 0
    }

    /// `--probe`: this process measures one map (and the baseline's, in turn) and writes
    /// the report.
    static func probe(_ args: ParsedArguments<Options>) throws -> Int32 {
        func required(_ value: String?, _ option: String) throws -> String {
            guard let value else { throw UsageError("missing required option '--\(option)' (with --probe)") }
            return value
        }
        let map = try required(args.map, "map"), out = try required(args.probeOut, "probe-out")
        let sessions = try [("walk", args.walk), ("hard", args.hard)].map {
            (label: $0.0, dir: URL(fileURLWithPath: try required($0.1, $0.0), isDirectory: true))
        }
        var baseline: (map: String, sessions: ScaleProbe.Sessions)?
        if args.isGiven(\.baselineMap) {
            baseline = (args.baselineMap, [("walk", args.baselineWalk), ("hard", args.baselineHard)].map {
                (label: $0.0, dir: URL(fileURLWithPath: $0.1, isDirectory: true))
            })
        }
        try ScaleProbe.write(try ScaleProbe.measure(map: map, sessions: sessions, baseline: baseline), to: out)
        return 0
    }
}

extension ScaleSize {
    /// `--sizes`: parsed by `ScaleSize.parse`, shown in the help as the sizes' labels.
    static let parser = ValueParser<[ScaleSize]>(placeholder: "LIST", describe: { $0.map(\.label).joined(separator: ",") }) {
        do { return try parse($0) } catch { throw UsageError("\(error)") }
    }
}
