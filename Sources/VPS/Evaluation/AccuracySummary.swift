import Foundation

/// A success threshold: a frame counts when localized within both bounds.
public struct ErrorThreshold: Sendable, Hashable, Codable, CustomStringConvertible {
    public var metres: Double
    public var degrees: Double
    public init(metres: Double, degrees: Double) { self.metres = metres; self.degrees = degrees }

    /// The thresholds reported by default: (5 cm, 2°), (25 cm, 5°), (1 m, 10°).
    public static let standard = [ErrorThreshold(metres: 0.05, degrees: 2),
                                  ErrorThreshold(metres: 0.25, degrees: 5),
                                  ErrorThreshold(metres: 1, degrees: 10)]

    public var description: String {
        let m = metres < 1 ? String(format: "%.0f cm", metres * 100) : String(format: "%g m", metres)
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

    public struct ThresholdRecall: Sendable, Hashable, Codable {
        public var threshold: ErrorThreshold
        public var fraction: Double
    }

    /// Summarises `outcomes` of a run that took `wallSeconds`.
    public init(outcomes: [FrameOutcome], wallSeconds: Double,
                thresholds: [ErrorThreshold] = ErrorThreshold.standard) {
        frames = outcomes.count
        localized = outcomes.filter { $0.result.isLocalized }.count
        successRate = frames == 0 ? 0 : Double(localized) / Double(frames)
        let withGT = outcomes.filter { $0.groundTruth != nil }
        framesWithGroundTruth = withGT.count
        let errors = withGT.compactMap(\.error)
        let t = errors.map(\.translation), r = errors.map(\.rotationDegrees)
        medianTranslationError = Statistics.median(t)
        p90TranslationError = Statistics.percentile(t, 90)
        medianRotationErrorDegrees = Statistics.median(r)
        p90RotationErrorDegrees = Statistics.percentile(r, 90)
        recall = thresholds.map { th in
            let hits = errors.filter { $0.translation <= th.metres && $0.rotationDegrees <= th.degrees }.count
            return ThresholdRecall(threshold: th, fraction: withGT.isEmpty ? 0 : Double(hits) / Double(withGT.count))
        }
        ateRMSE = Statistics.rms(t)
        self.wallSeconds = wallSeconds
        framesPerSecond = wallSeconds > 0 ? Double(frames) / wallSeconds : 0
        var stages: [(String, [Double])] = StageTimings().stages.map { ($0.name, []) } + [("total", [])]
        for o in outcomes {
            let values = o.result.timings.stages.map(\.milliseconds) + [o.result.timings.total]
            for i in stages.indices { stages[i].1.append(values[i]) }
        }
        latency = stages.map { name, v in
            let s = v.sorted()
            return LatencyStats(stage: name, p50: Statistics.percentile(sorted: s, 50) ?? 0,
                                p95: Statistics.percentile(sorted: s, 95) ?? 0,
                                p99: Statistics.percentile(sorted: s, 99) ?? 0,
                                mean: s.isEmpty ? 0 : s.reduce(0, +) / Double(s.count))
        }
    }

    /// The human-readable summary `arcloud localize` prints.
    public var text: String {
        func cm(_ v: Double?) -> String { v.map { String(format: "%.2f cm", $0 * 100) } ?? "n/a" }
        func deg(_ v: Double?) -> String { v.map { String(format: "%.3f°", $0) } ?? "n/a" }
        var lines = [
            String(format: "frames            %d (localized %d, success rate %.1f %%)", frames, localized, successRate * 100),
        ]
        if framesWithGroundTruth > 0 {
            lines.append("translation error median \(cm(medianTranslationError)), p90 \(cm(p90TranslationError))")
            lines.append("rotation error    median \(deg(medianRotationErrorDegrees)), p90 \(deg(p90RotationErrorDegrees))")
            for r in recall {
                lines.append("within " + r.threshold.description.padding(toLength: 13, withPad: " ", startingAt: 0)
                             + String(format: "%.1f %%", r.fraction * 100))
            }
            lines.append("ATE RMSE          \(cm(ateRMSE))")
        } else {
            lines.append("no ground truth in this session: accuracy not measured")
        }
        lines.append(String(format: "speed             %.1f frames/s (%.2f s wall)", framesPerSecond, wallSeconds))
        lines.append("latency (ms)      stage       p50      p95      p99")
        for l in latency {
            lines.append("                  " + l.stage.padding(toLength: 8, withPad: " ", startingAt: 0)
                         + String(format: " %8.2f %8.2f %8.2f", l.p50, l.p95, l.p99))
        }
        return lines.joined(separator: "\n")
    }
}
