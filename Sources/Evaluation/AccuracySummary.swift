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
            var figures = Figures()
            for o in outcomes { figures.add(o) }
            guard let c = figures.calibration else { return nil }
            self = c
        }

        /// The calibration gathered a frame at a time (`add`): the ratios go to a
        /// `SpilledSort` each, so a long run's are never held.
        struct Figures {
            var within = 0
            let position = SpilledSort(), rotation = SpilledSort()

            mutating func add(_ o: FrameOutcome) {
                guard let a = o.result.accuracy, let e = o.error else { return }
                if a.contains(translation: e.translation, rotationDegrees: e.rotationDegrees) { within += 1 }
                position.append(e.translation / max(a.position, .leastNonzeroMagnitude))
                rotation.append(e.rotationDegrees / max(a.rotationDegrees, .leastNonzeroMagnitude))
            }

            var calibration: Calibration? {
                guard position.count > 0, let p = position.percentiles([50]), let r = rotation.percentiles([50]) else { return nil }
                return Calibration(accepted: position.count, withinClaim: within, medianPositionRatio: p.values[0],
                                   medianRotationRatio: r.values[0])
            }
        }

        init(accepted: Int, withinClaim: Int, medianPositionRatio: Double, medianRotationRatio: Double) {
            self.accepted = accepted; self.withinClaim = withinClaim
            self.medianPositionRatio = medianPositionRatio; self.medianRotationRatio = medianRotationRatio
        }
    }

    public struct ThresholdRecall: Sendable, Hashable, Codable {
        public var threshold: ErrorThreshold
        public var fraction: Double
    }

    /// Summarises `outcomes` of a run that took `wallSeconds`.
    /// `outcomes` is read once, in order, never copied: a long run's can be a
    /// `FrameOutcomes` read back from disk. Percentiles are exact: each series (errors,
    /// claim ratios, each stage's latency) goes to a `SpilledSort`, which holds a bounded
    /// part of it in memory and the rest in sorted runs on disk.
    public init<Outcomes: Collection<FrameOutcome>>(outcomes: Outcomes, wallSeconds: Double,
                                                    thresholds: [ErrorThreshold] = ErrorThreshold.standard) {
        let names = StageTimings().stages.map(\.name) + ["total"]
        let translation = SpilledSort(), rotation = SpilledSort()
        let stages = names.map { _ in SpilledSort() }
        var calibrationFigures = Calibration.Figures()
        var hits = [Int](repeating: 0, count: thresholds.count)
        var count = 0, localizedCount = 0, scored = 0, squares = 0.0
        for o in outcomes {
            count += 1
            if o.result.isLocalized { localizedCount += 1 }
            let t = o.result.timings
            for (i, stage) in t.stages.enumerated() { stages[i].append(stage.milliseconds) }
            stages[names.count - 1].append(t.total)
            guard o.groundTruth != nil else { continue }
            scored += 1
            calibrationFigures.add(o)
            guard let e = o.error else { continue }
            translation.append(e.translation); rotation.append(e.rotationDegrees)
            squares += e.translation * e.translation
            for (k, th) in thresholds.enumerated() where e.translation <= th.translation && e.rotationDegrees <= th.degrees {
                hits[k] += 1
            }
        }
        frames = count
        localized = localizedCount
        successRate = frames == 0 ? 0 : Double(localized) / Double(frames)
        framesWithGroundTruth = scored
        let t = translation.percentiles([50, 90])?.values, r = rotation.percentiles([50, 90])?.values
        medianTranslationError = t?[0]
        p90TranslationError = t?[1]
        medianRotationErrorDegrees = r?[0]
        p90RotationErrorDegrees = r?[1]
        sceneScale = thresholds.first?.sceneScale
        recall = thresholds.indices.map { k in
            ThresholdRecall(threshold: thresholds[k], fraction: scored == 0 ? 0 : Double(hits[k]) / Double(scored))
        }
        // As `Statistics.rms`: the squares summed in frame order.
        ateRMSE = translation.count == 0 ? nil : (squares / Double(translation.count)).squareRoot()
        calibration = calibrationFigures.calibration
        self.wallSeconds = wallSeconds
        framesPerSecond = wallSeconds > 0 ? Double(frames) / wallSeconds : 0
        latency = names.indices.map { i in
            let p = stages[i].percentiles([50, 95, 99])
            // The mean as it always was: the sum of the sorted values over their count.
            return LatencyStats(stage: names[i], p50: p?.values[0] ?? 0, p95: p?.values[1] ?? 0, p99: p?.values[2] ?? 0,
                                mean: p.map { $0.ascendingSum / Double(stages[i].count) } ?? 0)
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
