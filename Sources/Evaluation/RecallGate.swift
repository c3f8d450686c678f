/// The pass mark `arcloud localize --min-recall` checks: the share of frames placed within
/// the report's primary threshold (the first of the summary's thresholds), or — for a
/// session without ground truth — the share localized.
public struct RecallGate: Sendable, Hashable {
    /// The lowest share (0…1) that passes.
    public var minimum: Double

    public init(minimum: Double) { self.minimum = minimum }

    /// The share measured and what it counts, e.g. `(0.93, "frames within (5 cm, 2°)")`.
    public static func measured(_ summary: AccuracySummary) -> (share: Double, what: String) {
        if summary.framesWithGroundTruth > 0, let primary = summary.recall.first {
            return (primary.fraction, "frames within \(primary.threshold)")
        }
        return (summary.successRate, "frames localized (no ground truth)")
    }

    /// Nil when `summary` passes; otherwise the one line saying why it does not.
    public func failure(_ summary: AccuracySummary) -> String? {
        let (share, what) = Self.measured(summary)
        guard share < minimum else { return nil }
        return "recall \(percent(share)) of \(what) is below --min-recall \(minimum) (\(percent(minimum)))"
    }

    private func percent(_ v: Double) -> String {
        let s = (v * 1000).rounded() / 10
        return "\(s == s.rounded() ? String(Int(s)) : String(s)) %"
    }
}
