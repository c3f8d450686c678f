import Localization
import Foundation
import MapModel
import Support
import VPSModel
import VPSServer
import Storage

/// What `bench scale` measures of one map, in a process of its own (`--probe`): loading
/// it, the memory it holds, and localizing the venue's query sessions against it on one
/// thread, single-shot and tracking. With a baseline map, the baseline's sessions are
/// localized in the same process, a frame of one and a frame of the other in turn: the
/// machine's load then weighs on both alike, and their ratio holds where absolute times
/// drift with other work on the machine.
package struct ScaleProbe {
    /// Error bounds of a wrong registration: a pose accepted this far from the truth.
    package static let wrongMetres = 0.25, wrongDegrees = 5.0
    /// Error bounds of recall.
    package static let recallMetres = 0.05, recallDegrees = 2.0
    /// Stage names in pipeline order, then the whole frame.
    package static let stages = StageTimings().stages.map(\.name) + ["total"]

    package struct Report: Codable {
        package var map: String
        package var keyframes: Int
        package var points: Int
        package var fileBytes: Int
        /// `VPSMap.load`, then the localizer built over it (vocabulary index, local map).
        package var loadSeconds: Double
        package var readySeconds: Double
        /// Resident memory growth from before the load to the ready localizer.
        package var residentBytes: Int
        /// C heap growth over the same span (what the server's map cache counts).
        package var heapBytes: Int
        package var runs: [Run]
        /// Per mode, the median milliseconds per frame of each stage over the frames of all
        /// sessions together.
        package var p50: [String: [String: Double]]
        /// The baseline map's sessions, localized in turn with these (same figures).
        package var baselineRuns: [Run]?
        package var baselineP50: [String: [String: Double]]?
    }

    /// Writes a probe's report where the benchmark reads it (`ScaleBenchmark`): JSON, keys sorted.
    package static func write(_ report: Report, to path: String) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        try encoder.encode(report).write(to: URL(fileURLWithPath: path))
    }

    /// One session localized in one mode.
    package struct Run: Codable {
        package var session: String
        package var mode: String
        package var frames: Int
        package var localized: Int
        /// Frames within (5 cm, 2°) of the ground truth.
        package var within: Int
        /// Frames accepted more than 25 cm or 5° from the ground truth.
        package var wrong: Int
        /// Median milliseconds per frame of each stage in `stages`.
        package var p50: [String: Double]
    }

    package typealias Sessions = [(label: String, dir: URL)]

    /// Loads `map`, localizes each session of `sessions` (label, folder) in both modes and
    /// returns the figures; with a `baseline` map and its sessions, those in turn.
    package static func measure(map path: String, sessions: Sessions, baseline: (map: String, sessions: Sessions)?) throws -> Report {
        let mine = try sessions.map { ($0.label, $0.dir, try RecordedSession.load(from: $0.dir)) }
        let rss0 = MemoryUsage.residentBytes() ?? 0, heap0 = MemoryUsage.heapBytes()
        let clock = ContinuousClock()
        let t0 = clock.now
        let map = try VPSMap.load(from: path)
        let t1 = clock.now
        let localizer = try Localizer(map: map)
        let t2 = clock.now
        let rss1 = MemoryUsage.residentBytes() ?? 0, heap1 = MemoryUsage.heapBytes()
        // Loaded after the measurement: the baseline's memory is not this map's.
        let other = try baseline.map { b in
            (try Localizer(map: try VPSMap.load(from: b.map)), try b.sessions.map { ($0.label, $0.dir, try RecordedSession.load(from: $0.dir)) })
        }
        var streams = [Stream(localizer: localizer, sessions: mine)]
        if let other { streams.append(Stream(localizer: other.0, sessions: other.1)) }
        // One frame of each first, untimed: lazy allocations are not a frame's cost.
        for s in streams { s.warmUp() }
        for mode in [LocalizationMode.singleShot, .tracking] {
            for s in streams { s.start(mode) }
            while streams.contains(where: { !$0.done }) {
                for s in streams where !s.done { try s.step() }
            }
        }
        let size = RegularFile.byteCount(atPath: path)
        return Report(map: path, keyframes: map.keyframes.count, points: map.points.count, fileBytes: size,
                      loadSeconds: (t1 - t0).seconds, readySeconds: (t2 - t0).seconds,
                      residentBytes: rss1 - rss0, heapBytes: heap1 - heap0, runs: streams[0].runs, p50: streams[0].p50,
                      baselineRuns: streams.count > 1 ? streams[1].runs : nil,
                      baselineP50: streams.count > 1 ? streams[1].p50 : nil)
    }

    /// One map's sessions localized a frame at a time, as `BatchLocalizer` does on one
    /// worker (tracking: one run over each whole session), so two maps can take turns.
    package final class Stream {
        package let localizer: Localizer
        package let sessions: [(String, URL, RecordedSession)]
        private(set) var runs: [Run] = []
        private(set) var p50: [String: [String: Double]] = [:]
        private var mode = LocalizationMode.singleShot
        private var session = 0, frame = 0
        private var tracker = OdometryTracker()
        private var outcomes: [FrameOutcome] = [], all: [FrameOutcome] = []
        private(set) var done = true

        package init(localizer: Localizer, sessions: [(String, URL, RecordedSession)]) {
            self.localizer = localizer; self.sessions = sessions
        }

        package func warmUp() {
            guard let (_, dir, s) = sessions.first, let f = s.frames.first else { return }
            _ = try? localizer.localize(encoded: [UInt8](Data(contentsOf: RecordedSession.imageURL(of: f, in: dir))),
                                        intrinsics: s.camera, gravity: f.gravity)
        }

        package func start(_ mode: LocalizationMode) {
            self.mode = mode
            session = 0; frame = 0; tracker = OdometryTracker(); outcomes = []; all = []
            done = sessions.allSatisfy { $0.2.frames.isEmpty }
        }

        /// Localizes the next frame.
        package func step() throws {
            let (label, dir, s) = sessions[session]
            let f = s.frames[frame]
            let prior = mode == .tracking ? tracker.predict(odometry: f.odometry) : nil
            let result: LocalizationResult
            do {
                let bytes = try [UInt8](Data(contentsOf: RecordedSession.imageURL(of: f, in: dir)))
                result = try localizer.localize(encoded: bytes, intrinsics: s.camera, prior: prior, gravity: f.gravity)
            } catch {
                result = LocalizationResult(status: .rejected, reason: "\(error)")
            }
            if mode == .tracking { tracker.update(fix: result.pose, odometry: f.odometry) }
            outcomes.append(FrameOutcome(frameId: f.id, image: f.image, timestamp: f.timestamp, result: result, groundTruth: f.pose))
            frame += 1
            guard frame == s.frames.count else { return }
            runs.append(ScaleProbe.run(label, mode, outcomes))
            all += outcomes
            outcomes = []; frame = 0; session += 1; tracker = OdometryTracker()
            while session < sessions.count && sessions[session].2.frames.isEmpty { session += 1 }
            if session == sessions.count {
                p50[mode.rawValue] = ScaleProbe.medians(all)
                done = true
            }
        }
    }

    package static func run(_ label: String, _ mode: LocalizationMode, _ outcomes: [FrameOutcome]) -> Run {
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
    package static func medians(_ outcomes: [FrameOutcome]) -> [String: Double] {
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
