/// The guided passes (`StageTimings.refine`) by step, in milliseconds: where their time goes.
/// Kept in memory for benchmarks; a results file records the stage total only.
public struct GuidedPassTimings: Sendable, Hashable {
    /// The local map around the pose and the projection search of its points.
    public var candidates: Double = 0
    /// Hamming matching of the keypoints against their candidates.
    public var match: Double = 0
    /// The robust pose solves on those matches.
    public var solve: Double = 0

    public init() {}

    /// Steps in pipeline order, as reports print them.
    public var steps: [(name: String, milliseconds: Double)] {
        [("candidates", candidates), ("match", match), ("solve", solve)]
    }

    /// Step by step sums.
    public static func + (a: GuidedPassTimings, b: GuidedPassTimings) -> GuidedPassTimings {
        var t = GuidedPassTimings()
        t.candidates = a.candidates + b.candidates; t.match = a.match + b.match; t.solve = a.solve + b.solve
        return t
    }
}
