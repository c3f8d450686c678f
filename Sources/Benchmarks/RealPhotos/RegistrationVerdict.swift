import Evaluation
import Geometry

/// How one localized (or rejected) photo scores against its ground truth, with errors
/// relative to the scene's scale (`SceneScale`), as `../shared/real/README.md` defines.
public enum RegistrationVerdict: String, Sendable, Hashable, Codable {
    /// Within the success tolerance (2°, 2 % of the scene scale by default).
    case success
    /// Accepted, outside the success tolerance but within the wrong-registration bound.
    case inaccurate
    /// Accepted and off by more than the wrong-registration bound (10°, 10 %): a VPS must
    /// reject such a frame rather than place it.
    case wrong
    /// Not placed.
    case rejected

    /// Tolerances in degrees and in fractions of the scene scale.
    public struct Tolerances: Sendable, Hashable {
        public var successDegrees = 2.0, successFraction = 0.02
        public var wrongDegrees = 10.0, wrongFraction = 0.10
        public init() {}
    }

    /// The verdict on `estimate` (nil: rejected) against `truth`.
    public init(estimate: Pose?, truth: Pose, sceneScale: Double, tolerances: Tolerances = Tolerances()) {
        guard let estimate else { self = .rejected; return }
        let e = estimate.error(to: truth)
        let fraction = e.translation / sceneScale
        if e.rotationDegrees <= tolerances.successDegrees, fraction <= tolerances.successFraction {
            self = .success
        } else if e.rotationDegrees > tolerances.wrongDegrees || fraction > tolerances.wrongFraction {
            self = .wrong
        } else {
            self = .inaccurate
        }
    }
}
