import Geometry
import Support
import VPSModel

/// One pipeline's run over the frames of `bench localize`: its time and pose per frame,
/// and the figures its table row shows.
public struct PipelineRun: Sendable {
    /// The row's label (`orb only`, `arcloud`, `arcloud+decode`, `image only`, `opencv`).
    public var name: String
    /// Time per frame in milliseconds (wall clock), in frame order.
    public var milliseconds: [Double] = []
    /// The pose per frame (T_map_camera; nil: not localized), in frame order; empty for a
    /// pipeline that places nothing (ORB alone).
    public var poses: [Pose?] = []
    /// The localizer's own timing of each stage per frame (`StageTimings`), in frame order;
    /// empty for a pipeline that does not report stages.
    public var stages: [StageTimings] = []

    public init(name: String) { self.name = name }

    /// Mean milliseconds per frame (0 for no frame).
    public var meanMilliseconds: Double { milliseconds.reduce(0, +) / Double(max(milliseconds.count, 1)) }
    /// Median milliseconds per frame (0 for no frame).
    public var medianMilliseconds: Double { Statistics.median(milliseconds) ?? 0 }
    /// Frames per second over the run's total time (0 for no time).
    public var framesPerSecond: Double {
        let total = milliseconds.reduce(0, +)
        return total > 0 ? Double(milliseconds.count) / (total / 1000) : 0
    }

    /// Mean milliseconds per frame of each stage the pipeline reported, in pipeline order
    /// (empty when it reported none).
    public var meanStages: [(name: String, milliseconds: Double)] { meanParts { $0.stages } }

    /// Mean milliseconds per frame of each step of the guided passes (`GuidedPassTimings`),
    /// and of each check of the judging (`JudgingTimings`); empty when no stages were reported.
    public var meanGuidedSteps: [(name: String, milliseconds: Double)] { meanParts { $0.guided.steps } }
    public var meanJudgingChecks: [(name: String, milliseconds: Double)] { meanParts { $0.judging.checks } }

    /// The mean over the frames of each named part `parts` reads from a frame's stage times.
    private func meanParts(_ parts: (StageTimings) -> [(name: String, milliseconds: Double)])
        -> [(name: String, milliseconds: Double)] {
        let all = stages.map(parts)
        guard let names = all.first?.map(\.name) else { return [] }
        return names.indices.map { k in (names[k], all.reduce(0) { $0 + $1[k].milliseconds } / Double(all.count)) }
    }

    /// Localized frames.
    public var localized: Int { poses.filter { $0 != nil }.count }

    /// Errors of the localized frames that have a ground-truth pose in `frames` (the run's
    /// frames, in order): translation in the session's units (metres), rotation in degrees.
    public func errors(against frames: [RecordedSession.Frame]) -> [(translation: Double, rotationDegrees: Double)] {
        zip(poses, frames).compactMap { p, f in
            guard let p, let g = f.pose else { return nil }
            return p.error(to: g)
        }
    }
}
