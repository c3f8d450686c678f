/// The judging of a pose (`StageTimings.verify`) by check, in milliseconds: where its time
/// goes. Kept in memory for benchmarks; a results file records the stage total only.
public struct JudgingTimings: Sendable, Hashable {
    /// The test against chance of the global matches (around a tracking prior: the prior's
    /// agreement with its matches).
    public var significance: Double = 0
    /// The pose's uncertainty from its inliers (covariance and jackknife) and its bounds.
    public var uncertainty: Double = 0
    /// The image regions the pose explains where the map expects structure.
    public var coverage: Double = 0
    /// The search for a rival pose that explains the global matches as well, and the growth
    /// back from it.
    public var rivals: Double = 0
    /// The image-only solve that checks the device's gravity.
    public var gravity: Double = 0
    /// The error the pose inherits from its seed or tracking prior: the seed's uncertainty,
    /// and the pose grown again from seeds moved within their bounds when that is needed.
    public var inheritance: Double = 0

    public init() {}

    /// Checks in the order a pose meets them, as reports print them.
    public var checks: [(name: String, milliseconds: Double)] {
        [("significance", significance), ("uncertainty", uncertainty), ("coverage", coverage), ("rivals", rivals),
         ("gravity", gravity), ("inheritance", inheritance)]
    }

    /// Check by check sums.
    public static func + (a: JudgingTimings, b: JudgingTimings) -> JudgingTimings {
        var t = JudgingTimings()
        t.significance = a.significance + b.significance; t.uncertainty = a.uncertainty + b.uncertainty
        t.coverage = a.coverage + b.coverage; t.rivals = a.rivals + b.rivals; t.gravity = a.gravity + b.gravity
        t.inheritance = a.inheritance + b.inheritance
        return t
    }
}
