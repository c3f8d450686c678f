import VPSModel

/// Keeps the inlier matches of the frames a report can show among its worst
/// (`WorstFrames.select`) and lets the others go, so that a long batch holds matches for a
/// few frames, not for every frame: the `maxFailed` earliest failed frames, the `count`
/// farthest off relative to the primary threshold, and the `count` localized frames without
/// ground truth with the fewest inliers.
public struct WorstFrameRetention: InlierMatchRetention {
    private let primary: (translation: Double, degrees: Double)
    private let count: Int, maxFailed: Int
    private var failed: [(index: Int, key: Double)] = []
    private var scored: [(index: Int, key: Double)] = []
    private var unscored: [(index: Int, key: Double)] = []

    /// - Parameter primary: the report's first threshold (`AccuracySummary.thresholds[0]`).
    public init(primary: ErrorThreshold, count: Int = WorstFrames.shown, maxFailed: Int = WorstFrames.maxFailedShown) {
        self.primary = (primary.translation, primary.degrees)
        self.count = count; self.maxFailed = maxFailed
    }

    public mutating func offer(_ outcome: FrameOutcome, at index: Int) -> [Int] {
        if !outcome.result.isLocalized {
            return Self.keep(index, key: -Double(index), in: &failed, limit: maxFailed)
        }
        if let e = outcome.error {
            return Self.keep(index, key: max(e.translation / primary.translation, e.rotationDegrees / primary.degrees),
                             in: &scored, limit: count)
        }
        return Self.keep(index, key: -Double(outcome.result.inliers), in: &unscored, limit: count)
    }

    /// Adds `index` to the `limit` largest keys of `kept`; returns the index that falls out.
    private static func keep(_ index: Int, key: Double, in kept: inout [(index: Int, key: Double)], limit: Int) -> [Int] {
        guard limit > 0 else { return [index] }
        kept.append((index, key))
        guard kept.count > limit, let smallest = kept.indices.min(by: { kept[$0].key < kept[$1].key }) else { return [] }
        return [kept.remove(at: smallest).index]
    }
}
