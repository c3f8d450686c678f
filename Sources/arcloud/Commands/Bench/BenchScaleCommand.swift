import Foundation
import Benchmarks
import MapModel
import SceneSynthesis
import VPSModel
import Storage

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

    /// The scene and sessions of every size: the gallery's seeds and image settings.
    static let sceneArguments = ["--layout", "building", "--seed", "7", "--size", "640x480", "--quality", "85"]
    static let sessions: [(label: String, arguments: [String])] = [
        ("mapping", ["--session-seed", "11", "--trajectory", "mapping"]),
        ("walk", ["--session-seed", "21", "--trajectory", "walk", "--frames", "70"]),
        ("hard", ["--session-seed", "31", "--trajectory", "hard", "--frames", "70"]),
    ]

    static func run(_ args: ParsedArguments<Options>) async throws -> Int32 {
        if args.probe { return try probe(args) }
        for (option, value) in [("map", args.map), ("walk", args.walk), ("hard", args.hard), ("probe-out", args.probeOut)]
        where value != nil {
            throw UsageError("option '--\(option)' goes with --probe")
        }
        let sizes = args.sizes
        let work = URL(fileURLWithPath: args.work, isDirectory: true)
        let baseline = (map: args.baselineMap, walk: args.baselineWalk, hard: args.baselineHard)
        guard FileKind(atPath: baseline.map) == .regular else {
            throw CommandFailure("the baseline map '\(baseline.map)' is missing (run from the repository root, or give --baseline-map)")
        }
        for dir in [baseline.walk, baseline.hard] where FileKind(atPath: dir + "/session.json") != .regular {
            throw CommandFailure("the baseline session '\(dir)' is missing (give --baseline-walk / --baseline-hard)")
        }
        try OutputLocation.prepareFolder(work.path, for: "--work")
        let json = args.json, fresh = args.fresh
        func note(_ line: String) { FileHandle.standardError.write(Data("bench scale: \(line)\n".utf8)) }

        var results: [ScaleResult] = []
        note("baseline \(baseline.map)")
        results.append(measure(label: "gallery", building: nil, map: baseline.map,
                               walk: baseline.walk, hard: baseline.hard, folder: work.appendingPathComponent("gallery"),
                               build: nil))
        for size in sizes {
            let folder = work.appendingPathComponent("building-\(size.building.shape)", isDirectory: true)
            var result = ScaleResult(label: size.label, building: size.building.shape)
            do {
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                for (label, arguments) in sessions {
                    let dir = folder.appendingPathComponent(label)
                    let synth = ["dataset", "synth", dir.path] + sceneArguments + size.building.arguments + arguments
                    if try generate(synth, into: dir, fresh: fresh, log: folder.appendingPathComponent("synth.log")) {
                        note("\(size.label): generated \(label) (\(size.building))")
                    }
                }
            } catch {
                result.failure = "generating the sessions failed: \(error)"
                results.append(result)
                note("\(size.label): \(result.failure!)")
                continue
            }
            let map = folder.appendingPathComponent("map.vpsmap").path
            note("\(size.label): building the map of \(size.building)")
            let build = try ChildProcess.run(["map", "build", "--session", folder.appendingPathComponent("mapping").path,
                                              "--out", map, "--quiet"], log: folder.appendingPathComponent("build.log"))
            result.build = build
            if let why = build.failure {
                result.failure = "map build failed (\(why)); see \(folder.path)/build.log"
                results.append(result)
                note("\(size.label): \(result.failure!)")
                continue
            }
            note("\(size.label): built in \(String(format: "%.1f", build.wallSeconds)) s; localizing")
            results.append(measure(label: size.label, building: size.building.shape, map: map,
                                   walk: folder.appendingPathComponent("walk").path,
                                   hard: folder.appendingPathComponent("hard").path, folder: folder, build: build,
                                   baseline: baseline))
        }
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            print(String(decoding: try encoder.encode(ScaleSummary(results: results)), as: UTF8.self))
        } else {
            print(ScaleTables.render(results))
        }
        return results.contains { $0.failure != nil } ? 1 : 0
    }

    /// Runs the synth command unless `dir` already holds a session made with the same
    /// arguments; returns whether it generated.
    static func generate(_ arguments: [String], into dir: URL, fresh: Bool, log: URL) throws -> Bool {
        let stamp = dir.appendingPathComponent(".bench-scale-arguments")
        let expected = arguments.dropFirst(3).joined(separator: " ")
        if !fresh, FileKind(atPath: dir.appendingPathComponent("session.json").path) == .regular,
           let text = try? String(contentsOf: stamp, encoding: .utf8), text == expected {
            return false
        }
        try? FileManager.default.removeItem(at: stamp)
        let run = try ChildProcess.run(arguments, log: log)
        if let why = run.failure { throw CommandFailure("\(why); see \(log.path)") }
        try expected.write(to: stamp, atomically: true, encoding: .utf8)
        return true
    }

    /// Probes one map in a child process and collects its report; with `baseline`, the
    /// baseline map's sessions are localized in turn with the map's (the ratio's basis).
    static func measure(label: String, building: String?, map: String, walk: String, hard: String, folder: URL,
                        build: ChildProcess.Run?, baseline: (map: String, walk: String, hard: String)? = nil) -> ScaleResult {
        var result = ScaleResult(label: label, building: building)
        result.build = build
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let out = folder.appendingPathComponent("probe.json")
            try? FileManager.default.removeItem(at: out)
            let log = folder.appendingPathComponent("probe.log")
            var arguments = ["bench", "scale", "--probe", "--map", map, "--walk", walk, "--hard", hard, "--probe-out", out.path]
            if let b = baseline { arguments += ["--baseline-map", b.map, "--baseline-walk", b.walk, "--baseline-hard", b.hard] }
            let run = try ChildProcess.run(arguments, log: log)
            result.probeProcess = run
            if let why = run.failure { throw CommandFailure("the probe failed (\(why)); see \(log.path)") }
            result.probe = try JSONDecoder().decode(ScaleProbe.Report.self, from: Data(contentsOf: out))
        } catch {
            result.failure = "\(error)"
        }
        return result
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
        let report = try ScaleProbe.measure(map: map, sessions: sessions, baseline: baseline)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        try encoder.encode(report).write(to: URL(fileURLWithPath: out))
        return 0
    }
}

/// One size of the benchmark: a building and how it was asked for.
struct ScaleSize: Sendable {
    var label: String
    var building: BuildingSize

    /// Map points of one room, and per wing of a hall segment and of the corridor for
    /// each pair of rooms, as maps of the building came out (rounded): the target sizes
    /// pick buildings with them.
    static let pointsPerRoom = 8_000, pointsPerHall = 12_500, pointsPerCorridorPair = 5_000

    static func estimatedPoints(_ b: BuildingSize) -> Int {
        b.floors * b.wings * (pointsPerHall + pointsPerCorridorPair * ((b.rooms + 1) / 2) + pointsPerRoom * b.rooms)
    }

    /// The building nearest `points`: one wing of up to six rooms, else wings of six rooms
    /// on as few floors of at most six wings as hold them.
    static func building(forPoints points: Int) -> BuildingSize {
        let wing = estimatedPoints(BuildingSize(floors: 1, wings: 1, rooms: 6))
        if points <= wing {
            let rooms = (1...6).min {
                abs(estimatedPoints(BuildingSize(floors: 1, wings: 1, rooms: $0)) - points)
                    < abs(estimatedPoints(BuildingSize(floors: 1, wings: 1, rooms: $1)) - points)
            }!
            return BuildingSize(floors: 1, wings: 1, rooms: rooms)
        }
        let wings = (points + wing - 1) / wing
        let floors = (wings + 5) / 6
        return BuildingSize(floors: floors, wings: (wings + floors - 1) / floors, rooms: 6)
    }

    /// `--sizes`: its value parsed as `parse` does, shown in the help as the sizes' labels.
    static let parser = ValueParser<[ScaleSize]>(placeholder: "LIST", describe: { $0.map(\.label).joined(separator: ",") }) {
        try parse($0)
    }

    /// Parses `30k,300k,1M,2x3x6`.
    static func parse(_ text: String) throws -> [ScaleSize] {
        let items = text.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        guard !items.isEmpty, !items.contains(where: \.isEmpty) else {
            throw UsageError("option '--sizes' needs a comma-separated list, got '\(text)'")
        }
        return try items.map { item in
            let parts = item.lowercased().split(separator: "x", omittingEmptySubsequences: false)
            if parts.count == 3 {
                let n = parts.compactMap { Int($0) }
                let b = BuildingSize(floors: n.count == 3 ? n[0] : 0, wings: n.count == 3 ? n[1] : 0, rooms: n.count == 3 ? n[2] : 0)
                if n.count != 3 || b.problem != nil {
                    throw UsageError("option '--sizes': '\(item)' is not a building FxWxR (\(b.problem ?? "whole numbers"))")
                }
                return ScaleSize(label: item, building: b)
            }
            let lower = item.lowercased()
            let (digits, factor) = lower.hasSuffix("k") ? (lower.dropLast(), 1_000.0)
                : lower.hasSuffix("m") ? (lower.dropLast(), 1_000_000.0) : (Substring(lower), 1.0)
            guard let value = Double(digits), value > 0, value * factor <= 50_000_000 else {
                throw UsageError("option '--sizes': '\(item)' is neither a point count (30k, 1M) nor a building FxWxR")
            }
            let building = Self.building(forPoints: Int(value * factor))
            if let p = building.problem { throw UsageError("option '--sizes': \(item) needs too large a building (\(p))") }
            return ScaleSize(label: item, building: building)
        }
    }
}

extension BuildingSize {
    /// `FxWxR`.
    var shape: String { "\(floors)x\(wings)x\(rooms)" }
    var arguments: [String] { ["--floors", "\(floors)", "--wings", "\(wings)", "--rooms", "\(rooms)"] }
}
