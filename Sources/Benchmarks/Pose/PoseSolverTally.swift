import Support
import Vision

/// One solver's times and errors over the correspondence sets of one `bench pose`
/// configuration, and their medians (`Statistics.median`).
public struct PoseSolverTally: Sendable {
    /// Time of each solve in milliseconds, on the benchmark's clock, Swift wrapper included.
    public private(set) var milliseconds: [Double] = []
    /// Rotation error of each solve in degrees; 180 when the solver found no pose.
    public private(set) var rotationDegrees: [Double] = []
    /// Camera-centre error of each solve in metres; infinity when the solver found no pose.
    public private(set) var translation: [Double] = []
    /// Solves whose rotation error is below 1 degree.
    public private(set) var withinOneDegree = 0

    public init() {}

    /// Times `solve` on `clock` and scores its pose against `set.truth` (a throw counts as no pose).
    public mutating func add(_ set: CorrespondenceSet, clock: BenchClock, time solve: () throws -> PoseEstimate) {
        let start = clock.nowMs()
        let result = try? solve()
        milliseconds.append(clock.nowMs() - start)
        guard let r = result else {
            rotationDegrees.append(180); translation.append(.infinity)
            return
        }
        let err = r.pose.error(to: set.truth)
        rotationDegrees.append(err.rotationDegrees); translation.append(err.translation)
        if err.rotationDegrees < 1 { withinOneDegree += 1 }
    }

    /// Median time per solve, milliseconds (NaN when empty).
    public var medianMilliseconds: Double { Statistics.median(milliseconds) ?? .nan }
    /// Median rotation error, degrees (NaN when empty).
    public var medianRotationDegrees: Double { Statistics.median(rotationDegrees) ?? .nan }
    /// Median camera-centre error, metres (NaN when empty).
    public var medianTranslation: Double { Statistics.median(translation) ?? .nan }
}
