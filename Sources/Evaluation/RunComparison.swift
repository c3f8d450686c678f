import Foundation
import VPSModel

/// What changed, frame by frame, between two localization runs on the same session (two
/// map versions, two builds): frames newly lost or newly found, and frames whose error
/// against ground truth moved by more than a threshold. Frames are matched by id.
///
/// Lengths are in the map's units: metres on a metric map; on a map in unknown units the
/// thresholds are shares of the scene scale (`ErrorThreshold(sceneScaleShare:of:degrees:)`),
/// as `arcloud localize` scores such runs.
public struct RunComparison: Sendable {

    public enum Change: String, Sendable, Hashable, CaseIterable {
        /// Localized in A, not in B: a regression.
        case newlyLost = "newly lost"
        /// Not localized in A, localized in B.
        case newlyFound = "newly found"
        /// Error against ground truth grew by more than the threshold: a regression.
        case worse
        /// Error against ground truth shrank by more than the threshold.
        case better
        /// No ground truth: the pose itself moved by more than the threshold between runs
        /// (direction unknown, so not counted as a regression).
        case moved
    }

    public struct FrameChange: Sendable, Hashable {
        public var frameId: String
        public var change: Change
        public var before: FrameOutcome
        public var after: FrameOutcome
    }

    /// How much an error (or, without ground truth, the pose) must move to count.
    public var threshold: ErrorThreshold
    /// Changed frames, in B's frame order.
    public var changes: [FrameChange]
    /// Frames in both runs.
    public var common: Int
    public var onlyInA: [String]
    public var onlyInB: [String]
    public var localizedA: Int
    public var localizedB: Int
    /// Share of common frames with ground truth within the primary threshold, per run.
    public var withinA: Double?
    public var withinB: Double?
    public var primary: ErrorThreshold

    /// Newly lost plus worse.
    public var regressions: Int { changes.filter { $0.change == .newlyLost || $0.change == .worse }.count }

    public func count(_ change: Change) -> Int { changes.filter { $0.change == change }.count }

    public init(_ a: [FrameOutcome], _ b: [FrameOutcome], threshold: ErrorThreshold = ErrorThreshold.standard[0],
                primary: ErrorThreshold = ErrorThreshold.standard[0]) {
        self.threshold = threshold
        self.primary = primary
        let byId = Dictionary(a.map { ($0.frameId, $0) }, uniquingKeysWith: { first, _ in first })
        let idsB = Set(b.map(\.frameId))
        var changes: [FrameChange] = []
        var pairs: [(FrameOutcome, FrameOutcome)] = []
        for after in b {
            guard let before = byId[after.frameId] else { continue }
            pairs.append((before, after))
            if let change = Self.change(before, after, threshold) {
                changes.append(FrameChange(frameId: after.frameId, change: change, before: before, after: after))
            }
        }
        self.changes = changes
        common = pairs.count
        onlyInA = a.map(\.frameId).filter { !idsB.contains($0) }
        onlyInB = b.map(\.frameId).filter { byId[$0] == nil }
        localizedA = pairs.filter { $0.0.result.isLocalized }.count
        localizedB = pairs.filter { $0.1.result.isLocalized }.count
        func within(_ outcomes: [FrameOutcome]) -> Double? {
            let withTruth = outcomes.filter { $0.groundTruth != nil }
            guard !withTruth.isEmpty else { return nil }
            let hits = withTruth.filter { o in o.error.map { $0.translation <= primary.translation && $0.rotationDegrees <= primary.degrees } ?? false }
            return Double(hits.count) / Double(withTruth.count)
        }
        withinA = within(pairs.map(\.0))
        withinB = within(pairs.map(\.1))
    }

    static func change(_ a: FrameOutcome, _ b: FrameOutcome, _ t: ErrorThreshold) -> Change? {
        switch (a.result.pose, b.result.pose) {
        case (.some, nil): return .newlyLost
        case (nil, .some): return .newlyFound
        case (nil, nil): return nil
        case let (pa?, pb?):
            if let ea = a.error, let eb = b.error {
                let dt = eb.translation - ea.translation, dr = eb.rotationDegrees - ea.rotationDegrees
                if dt > t.translation || dr > t.degrees { return .worse }
                if dt < -t.translation || dr < -t.degrees { return .better }
                return nil
            }
            let moved = pa.error(to: pb)
            return moved.translation > t.translation || moved.rotationDegrees > t.degrees ? .moved : nil
        }
    }

    /// One line per changed frame: id, change, then A → B.
    public var frameLines: [String] {
        let width = max(changes.map(\.frameId.count).max() ?? 0, 5)
        return changes.map { c in
            c.frameId.padding(toLength: width, withPad: " ", startingAt: 0) + "  "
                + c.change.rawValue.padding(toLength: 11, withPad: " ", startingAt: 0) + "  "
                + describe(c.before) + " → " + describe(c.after)
        }
    }

    /// The summary line.
    public var summaryLine: String {
        var parts = ["\(common) frames in both runs"]
        parts.append(Change.allCases.map { "\(count($0)) \($0.rawValue)" }.joined(separator: ", "))
        parts.append("localized \(localizedA) → \(localizedB)")
        if let withinA, let withinB {
            parts.append(String(format: "within %@ %.1f %% → %.1f %%", primary.description, withinA * 100, withinB * 100))
        }
        if !onlyInA.isEmpty || !onlyInB.isEmpty { parts.append("\(onlyInA.count) frames only in A, \(onlyInB.count) only in B") }
        parts.append("\(regressions) regressions")
        return parts.joined(separator: "; ")
    }

    /// A frame's outcome: its error in cm on a metric map, as a share of the scene scale
    /// on a map in unknown units.
    func describe(_ o: FrameOutcome) -> String {
        guard o.result.isLocalized else { return "rejected" + (o.result.reason.map { " (\($0))" } ?? "") }
        guard let e = o.error else { return "localized" }
        if let scale = primary.sceneScale {
            return String(format: "%.2f %% of scene scale, %.2f°", 100 * e.translation / scale, e.rotationDegrees)
        }
        return String(format: "%.2f cm, %.2f°", e.translation * 100, e.rotationDegrees)
    }
}
