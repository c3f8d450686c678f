import Foundation
import VPS
import VPSServer

/// What `bench scale` measures of one map, in a process of its own (`--probe`): loading
/// it, the memory it holds, and localizing the venue's query sessions against it on one
/// thread, single-shot and tracking.
struct ScaleProbe {
    /// Error bounds of a wrong registration: a pose accepted this far from the truth.
    static let wrongMetres = 0.25, wrongDegrees = 5.0
    /// Error bounds of recall.
    static let recallMetres = 0.05, recallDegrees = 2.0
    /// Stage names in pipeline order, then the whole frame.
    static let stages = StageTimings().stages.map(\.name) + ["total"]

    struct Report: Codable {
        var map: String
        var keyframes: Int
        var points: Int
        var fileBytes: Int
        /// `VPSMap.load`, then the localizer built over it (vocabulary index, local map).
        var loadSeconds: Double
        var readySeconds: Double
        /// Resident memory growth from before the load to the ready localizer.
        var residentBytes: Int
        /// C heap growth over the same span (what the server's map cache counts).
        var heapBytes: Int
        var runs: [Run]
        /// Per mode, the median milliseconds per frame of each stage over the frames of all
        /// sessions together.
        var p50: [String: [String: Double]]
    }

    /// One session localized in one mode.
    struct Run: Codable {
        var session: String
        var mode: String
        var frames: Int
        var localized: Int
        /// Frames within (5 cm, 2°) of the ground truth.
        var within: Int
        /// Frames accepted more than 25 cm or 5° from the ground truth.
        var wrong: Int
        /// Median milliseconds per frame of each stage in `stages`.
        var p50: [String: Double]
    }

    /// Loads `map`, localizes each session of `sessions` (label, folder) in both modes and
    /// returns the figures.
    static func measure(map path: String, sessions: [(label: String, dir: URL)]) throws -> Report {
        let loaded = try sessions.map { ($0.label, $0.dir, try RecordedSession.load(from: $0.dir)) }
        let rss0 = MemoryUsage.residentBytes() ?? 0, heap0 = MemoryUsage.heapBytes()
        let clock = ContinuousClock()
        let t0 = clock.now
        let map = try VPSMap.load(from: path)
        let t1 = clock.now
        let localizer = try Localizer(map: map)
        let t2 = clock.now
        let rss1 = MemoryUsage.residentBytes() ?? 0, heap1 = MemoryUsage.heapBytes()
        // One frame first, untimed: lazy allocations are not a frame's cost.
        if let (_, dir, session) = loaded.first, let frame = session.frames.first {
            _ = try? localizer.localize(encoded: [UInt8](Data(contentsOf: RecordedSession.imageURL(of: frame, in: dir))),
                                        intrinsics: session.camera, gravity: frame.gravity)
        }
        var runs: [Run] = []
        var pooled: [String: [String: Double]] = [:]
        for mode in [LocalizationMode.singleShot, .tracking] {
            var all: [FrameOutcome] = []
            for (label, dir, session) in loaded {
                let outcomes = try BatchLocalizer(localizer: localizer, mode: mode, workers: 1).run(session, in: dir).outcomes
                runs.append(run(label, mode, outcomes))
                all += outcomes
            }
            pooled[mode.rawValue] = medians(all)
        }
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        return Report(map: path, keyframes: map.keyframes.count, points: map.points.count, fileBytes: size,
                      loadSeconds: (t1 - t0).secondsValue, readySeconds: (t2 - t0).secondsValue,
                      residentBytes: rss1 - rss0, heapBytes: heap1 - heap0, runs: runs, p50: pooled)
    }

    static func run(_ label: String, _ mode: LocalizationMode, _ outcomes: [FrameOutcome]) -> Run {
        var within = 0, wrong = 0
        for o in outcomes {
            guard let e = o.error else { continue }
            if e.translation <= recallMetres && e.rotationDegrees <= recallDegrees { within += 1 }
            if e.translation > wrongMetres || e.rotationDegrees > wrongDegrees { wrong += 1 }
        }
        return Run(session: label, mode: mode.rawValue, frames: outcomes.count,
                   localized: outcomes.filter(\.result.isLocalized).count, within: within, wrong: wrong,
                   p50: medians(outcomes))
    }

    /// Median milliseconds of each stage of `stages` over `outcomes`.
    static func medians(_ outcomes: [FrameOutcome]) -> [String: Double] {
        var p50: [String: Double] = [:]
        for stage in stages {
            let values = outcomes.map { o in
                stage == "total" ? o.result.timings.total : o.result.timings.stages.first { $0.name == stage }?.milliseconds ?? 0
            }
            p50[stage] = Statistics.median(values) ?? 0
        }
        return p50
    }
}
