import Foundation
import VPSModel

/// `arcloud bench scale`: maps of a synthetic building at each size, each built and
/// measured in a child process of its own (`ChildProcess`: its peak memory is the kernel's
/// count for that process alone), against the one-gallery baseline map. A stage that fails
/// is recorded as failed and the other sizes still run.
public struct ScaleBenchmark {
    /// The one-gallery map and its walk and hard sessions (paths).
    public struct Baseline: Sendable {
        public var map: String, walk: String, hard: String

        public init(map: String, walk: String, hard: String) { self.map = map; self.walk = walk; self.hard = hard }

        /// Fails, naming the file, when the map or a session is missing.
        public func check() throws {
            guard FileKind(atPath: map) == .regular else {
                throw BenchmarkFailure("the baseline map '\(map)' is missing (run from the repository root, or give --baseline-map)")
            }
            for dir in [walk, hard] where FileKind(atPath: dir + "/session.json") != .regular {
                throw BenchmarkFailure("the baseline session '\(dir)' is missing (give --baseline-walk / --baseline-hard)")
            }
        }
    }

    /// The scene and sessions of every size: the gallery's seeds and image settings.
    public static let sceneArguments = ["--layout", "building", "--seed", "7", "--size", "640x480", "--quality", "85"]
    public static let sessions: [(label: String, arguments: [String])] = [
        ("mapping", ["--session-seed", "11", "--trajectory", "mapping"]),
        ("walk", ["--session-seed", "21", "--trajectory", "walk", "--frames", "70"]),
        ("hard", ["--session-seed", "31", "--trajectory", "hard", "--frames", "70"]),
    ]

    public var sizes: [ScaleSize]
    /// Sessions, maps, probe reports and logs go here, a folder per size.
    public var work: URL
    /// Regenerate sessions even when they were made with the same arguments.
    public var fresh: Bool
    public var baseline: Baseline

    public init(sizes: [ScaleSize], work: URL, fresh: Bool, baseline: Baseline) {
        self.sizes = sizes; self.work = work; self.fresh = fresh; self.baseline = baseline
    }

    /// Measures the baseline, then each size (sessions, map build, probe); `note` gets one
    /// line per step. The baseline's result comes first.
    package func run(note: (String) -> Void) throws -> [ScaleResult] {
        var results: [ScaleResult] = []
        note("baseline \(baseline.map)")
        results.append(Self.measure(label: "gallery", building: nil, map: baseline.map, walk: baseline.walk,
                                    hard: baseline.hard, folder: work.appendingPathComponent("gallery"), build: nil))
        for size in sizes {
            let folder = work.appendingPathComponent("building-\(size.building.shape)", isDirectory: true)
            var result = ScaleResult(label: size.label, building: size.building.shape)
            do {
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                for (label, arguments) in Self.sessions {
                    let dir = folder.appendingPathComponent(label)
                    let synth = ["dataset", "synth", dir.path] + Self.sceneArguments + size.building.arguments + arguments
                    if try Self.generate(synth, into: dir, fresh: fresh, log: folder.appendingPathComponent("synth.log")) {
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
            results.append(Self.measure(label: size.label, building: size.building.shape, map: map,
                                        walk: folder.appendingPathComponent("walk").path,
                                        hard: folder.appendingPathComponent("hard").path, folder: folder, build: build,
                                        baseline: baseline))
        }
        return results
    }

    /// Runs `arcloud <arguments>` (a `dataset synth`) unless `dir` already holds a session
    /// made with the same arguments; returns whether it generated.
    static func generate(_ arguments: [String], into dir: URL, fresh: Bool, log: URL) throws -> Bool {
        let stamp = dir.appendingPathComponent(".bench-scale-arguments")
        let expected = arguments.dropFirst(3).joined(separator: " ")
        if !fresh, FileKind(atPath: dir.appendingPathComponent("session.json").path) == .regular,
           let text = try? String(contentsOf: stamp, encoding: .utf8), text == expected {
            return false
        }
        try? FileManager.default.removeItem(at: stamp)
        let run = try ChildProcess.run(arguments, log: log)
        if let why = run.failure { throw BenchmarkFailure("\(why); see \(log.path)") }
        try expected.write(to: stamp, atomically: true, encoding: .utf8)
        return true
    }

    /// Probes one map in a child process (`bench scale --probe`) and collects its report;
    /// with `baseline`, the baseline map's sessions are localized in turn with the map's
    /// (the ratio's basis).
    static func measure(label: String, building: String?, map: String, walk: String, hard: String, folder: URL,
                        build: ChildProcess.Run?, baseline: Baseline? = nil) -> ScaleResult {
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
            if let why = run.failure { throw BenchmarkFailure("the probe failed (\(why)); see \(log.path)") }
            result.probe = try JSONDecoder().decode(ScaleProbe.Report.self, from: Data(contentsOf: out))
        } catch {
            result.failure = "\(error)"
        }
        return result
    }
}
