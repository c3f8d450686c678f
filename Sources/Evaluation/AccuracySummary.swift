import Foundation
import MapModel
import Support
import VPSModel

/// A success threshold: a frame counts when localized within both bounds.
///
/// On a metric map the translation bound is in metres. On a map in unknown units (a COLMAP
/// model) a length in metres means nothing, so the bound is a share of the scene scale
/// (`SceneScale`, as `../shared/real/README.md` scores real photos) and says so.
public struct ErrorThreshold: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The camera-centre bound in the map's units: metres on a metric map.
    public var translation: Double
    public var degrees: Double
    /// On a map in unknown units, the bound as this share of the scene scale (`translation`
    /// is share × scale); nil when the bound is in metres.
    public var sceneScaleShare: Double?

    public init(metres: Double, degrees: Double) { translation = metres; self.degrees = degrees }

    /// `share` of `sceneScale` (in the map's units) and `degrees`.
    public init(sceneScaleShare share: Double, of sceneScale: Double, degrees: Double) {
        translation = share * sceneScale; self.degrees = degrees; sceneScaleShare = share
    }

    /// The thresholds reported on a metric map: (5 cm, 2°), (25 cm, 5°), (1 m, 10°).
    public static let standard = [ErrorThreshold(metres: 0.05, degrees: 2),
                                  ErrorThreshold(metres: 0.25, degrees: 5),
                                  ErrorThreshold(metres: 1, degrees: 10)]

    /// The thresholds reported on a map in unknown units: (2 %, 2°), (5 %, 5°), (10 %, 10°)
    /// of `sceneScale`. The first is the real-photo benchmark's success, the last the bound
    /// beyond which an accepted frame counts as a wrong registration.
    public static func relative(to sceneScale: Double) -> [ErrorThreshold] {
        [(0.02, 2.0), (0.05, 5.0), (0.1, 10.0)].map { ErrorThreshold(sceneScaleShare: $0.0, of: sceneScale, degrees: $0.1) }
    }

    /// The thresholds for a map in `units`: metres on a metric map, otherwise shares of
    /// `sceneScale` (the scale of the scene the session saw, in the map's units).
    public static func forMap(units: MapUnits, sceneScale: Double) -> [ErrorThreshold] {
        units == .metres ? standard : relative(to: sceneScale)
    }

    /// The scene scale a relative bound is a share of (in the map's units); nil for a bound
    /// in metres.
    public var sceneScale: Double? { sceneScaleShare.map { translation / $0 } }

    public var description: String {
        if let share = sceneScaleShare {
            return String(format: "(%g %% of scene scale, %g°)", share * 100, degrees)
        }
        let m = translation < 1 ? String(format: "%.0f cm", translation * 100) : String(format: "%g m", translation)
        return "(\(m), \(String(format: "%g", degrees))°)"
    }
}

/// Latency percentiles of one pipeline stage, in milliseconds.
public struct LatencyStats: Sendable, Hashable, Codable {
    public var stage: String
    public var p50: Double
    public var p95: Double
    public var p99: Double
    public var mean: Double
}

/// Aggregate figures of a batch run: success, accuracy against ground truth, speed.
public struct AccuracySummary: Sendable, Hashable, Codable {
    public var frames: Int
    public var localized: Int
    /// Localized frames / all frames.
    public var successRate: Double
    /// Frames that have ground truth (accuracy figures are over these).
    public var framesWithGroundTruth: Int
    public var medianTranslationError: Double?
    public var p90TranslationError: Double?
    public var medianRotationErrorDegrees: Double?
    public var p90RotationErrorDegrees: Double?
    /// Fraction of frames with ground truth localized within each threshold
    /// (a rejected frame counts as a miss).
    public var recall: [ThresholdRecall]
    /// Absolute trajectory error: RMS of the position error over localized frames, in the
    /// map frame (no alignment: a VPS answers in the map frame, so none is owed).
    public var ateRMSE: Double?
    /// Frames per second of the whole run (wall clock, all workers).
    public var framesPerSecond: Double
    public var wallSeconds: Double
    public var latency: [LatencyStats]
    /// The scene scale the thresholds are shares of, in the map's units, when the map's
    /// units are unknown (errors are then in those units); nil on a metric map.
    public var sceneScale: Double?
    /// How well the answers' own `accuracy` holds, over localized frames with ground truth.
    public var calibration: Calibration?
    /// How close the GeoPoses lie to the truth, when the session's true georeference is
    /// known (set by the caller: `GeoPoseCheck`).
    public var geoPoses: GeoPoseCheck?
    /// How close the GeoPoses lie to each frame's own GPS reading, when the session's
    /// frames carry readings (set by the caller: `GeoPoseGPSCheck`).
    public var geoPosesToGPS: GeoPoseGPSCheck?

    /// Localized frames with ground truth, and how many lie within their claimed accuracy
    /// (`PoseAccuracy`, position and rotation both): a calibrated localizer keeps the share
    /// the bounds promise.
    public struct Calibration: Sendable, Hashable, Codable {
        /// Localized frames with ground truth and a claimed accuracy.
        public var accepted: Int
        /// Of those, the frames whose error lies within their claim.
        public var withinClaim: Int
        /// Median over those frames of (position error / claimed bound), and of the rotation's.
        public var medianPositionRatio: Double
        public var medianRotationRatio: Double

        public var fraction: Double { accepted > 0 ? Double(withinClaim) / Double(accepted) : 0 }

        /// The calibration of `outcomes`; nil when none is localized with ground truth and a claim.
        public init?<Outcomes: Sequence<FrameOutcome>>(_ outcomes: Outcomes) {
            var within = 0, position: [Double] = [], rotation: [Double] = []
            for o in outcomes {
                guard let a = o.result.accuracy, let e = o.error else { continue }
                if a.contains(translation: e.translation, rotationDegrees: e.rotationDegrees) { within += 1 }
                position.append(e.translation / max(a.position, .leastNonzeroMagnitude))
                rotation.append(e.rotationDegrees / max(a.rotationDegrees, .leastNonzeroMagnitude))
            }
            guard !position.isEmpty else { return nil }
            accepted = position.count; withinClaim = within
            medianPositionRatio = Statistics.median(position) ?? 0
            medianRotationRatio = Statistics.median(rotation) ?? 0
        }
    }

    public struct ThresholdRecall: Sendable, Hashable, Codable {
        public var threshold: ErrorThreshold
        public var fraction: Double
    }

    /// Summarises `outcomes` of a run that took `wallSeconds`.
    /// `outcomes` is read a few times over, never copied whole: a long run's can be a
    /// `FrameOutcomes` that keeps only a few numbers per frame.
    public init<Outcomes: Collection<FrameOutcome>>(outcomes: Outcomes, wallSeconds: Double,
                                                    thresholds: [ErrorThreshold] = ErrorThreshold.standard) {
        frames = outcomes.count
        localized = outcomes.lazy.filter { $0.result.isLocalized }.count
        successRate = frames == 0 ? 0 : Double(localized) / Double(frames)
        let withGT = outcomes.lazy.filter { $0.groundTruth != nil }
        let scored = withGT.count
        framesWithGroundTruth = scored
        let errors = Array(withGT.compactMap(\.error))
        let t = errors.map(\.translation), r = errors.map(\.rotationDegrees)
        medianTranslationError = Statistics.median(t)
        p90TranslationError = Statistics.percentile(t, 90)
        medianRotationErrorDegrees = Statistics.median(r)
        p90RotationErrorDegrees = Statistics.percentile(r, 90)
        sceneScale = thresholds.first?.sceneScale
        recall = thresholds.map { th in
            let hits = errors.filter { $0.translation <= th.translation && $0.rotationDegrees <= th.degrees }.count
            return ThresholdRecall(threshold: th, fraction: scored == 0 ? 0 : Double(hits) / Double(scored))
        }
        ateRMSE = Statistics.rms(t)
        calibration = Calibration(withGT)
        self.wallSeconds = wallSeconds
        framesPerSecond = wallSeconds > 0 ? Double(frames) / wallSeconds : 0
        // One stage at a time: a long run's timings are never all held at once.
        let names = StageTimings().stages.map(\.name) + ["total"]
        latency = names.indices.map { i in
            var s: [Double] = []
            s.reserveCapacity(outcomes.count)
            for o in outcomes { s.append(i < names.count - 1 ? o.result.timings.stages[i].milliseconds : o.result.timings.total) }
            s.sort()
            return LatencyStats(stage: names[i], p50: Statistics.percentile(sorted: s, 50) ?? 0,
                                p95: Statistics.percentile(sorted: s, 95) ?? 0,
                                p99: Statistics.percentile(sorted: s, 99) ?? 0,
                                mean: s.isEmpty ? 0 : s.reduce(0, +) / Double(s.count))
        }
    }

    /// The human-readable summary `arcloud localize` prints.
    public var text: String {
        // Lengths in centimetres on a metric map; in map units and shares of the scene
        // scale when the map's units are unknown.
        func cm(_ v: Double?) -> String {
            guard let v else { return "n/a" }
            guard let scale = sceneScale else { return String(format: "%.2f cm", v * 100) }
            return String(format: "%.4g map units (%.2f %%)", v, 100 * v / scale)
        }
        func deg(_ v: Double?) -> String { v.map { String(format: "%.3f°", $0) } ?? "n/a" }
        var lines = [
            String(format: "frames            %d (localized %d, success rate %.1f %%)", frames, localized, successRate * 100),
        ]
        if framesWithGroundTruth > 0 {
            if let scale = sceneScale {
                lines.append(String(format: "units             unknown: errors in map units and %% of the scene scale (%.4g units)", scale))
            }
            lines.append("translation error median \(cm(medianTranslationError)), p90 \(cm(p90TranslationError))")
            lines.append("rotation error    median \(deg(medianRotationErrorDegrees)), p90 \(deg(p90RotationErrorDegrees))")
            for r in recall {
                lines.append("within " + r.threshold.description.padding(toLength: sceneScale == nil ? 13 : 29, withPad: " ", startingAt: 0)
                             + String(format: "%.1f %%", r.fraction * 100))
            }
            lines.append("ATE RMSE          \(cm(ateRMSE))")
            if let c = calibration {
                lines.append(String(format: "within claim      %.1f %% (%d of %d localized frames inside their 95 %% accuracy; "
                                    + "median error / claim: position %.2f, rotation %.2f)",
                                    100 * c.fraction, c.withinClaim, c.accepted, c.medianPositionRatio, c.medianRotationRatio))
            }
            if let g = geoPoses { lines.append(g.text) }
        } else {
            lines.append("no ground truth in this session: accuracy not measured")
        }
        if let g = geoPosesToGPS { lines.append(g.text) }
        lines.append(String(format: "speed             %.1f frames/s (%.2f s wall)", framesPerSecond, wallSeconds))
        lines.append("latency (ms)      stage       p50      p95      p99")
        for l in latency {
            lines.append("                  " + l.stage.padding(toLength: 8, withPad: " ", startingAt: 0)
                         + String(format: " %8.2f %8.2f %8.2f", l.p50, l.p95, l.p99))
        }
        return lines.joined(separator: "\n")
    }
}
