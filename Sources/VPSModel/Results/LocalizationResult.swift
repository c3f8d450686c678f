import Geodesy
import Geometry

/// Wall-clock time spent in each stage of one localization, in milliseconds.
public struct StageTimings: Sendable, Hashable, Codable {
    public var decode: Double = 0
    /// Estimating the frame's motion blur, and removing it when there is some
    /// (`LocalizerOptions.motionDeblur`).
    public var deblur: Double = 0
    public var extract: Double = 0
    public var retrieve: Double = 0
    public var match: Double = 0
    public var solve: Double = 0
    public var refine: Double = 0
    /// Judging the pose (`PoseAcceptance`): its significance, uncertainty, coverage and rivals.
    public var verify: Double = 0
    public var total: Double = 0
    /// `refine` by step (not encoded).
    public var guided = GuidedPassTimings()
    /// `verify` by check (not encoded).
    public var judging = JudgingTimings()

    public init() {}

    /// Stage names and values in pipeline order (the order reports print them).
    public var stages: [(name: String, milliseconds: Double)] {
        [("decode", decode), ("deblur", deblur), ("extract", extract), ("retrieve", retrieve), ("match", match),
         ("solve", solve), ("refine", refine), ("verify", verify)]
    }

    /// Stage by stage sums, for a frame localized in more than one attempt.
    public static func + (a: StageTimings, b: StageTimings) -> StageTimings {
        var t = StageTimings()
        t.decode = a.decode + b.decode; t.deblur = a.deblur + b.deblur; t.extract = a.extract + b.extract
        t.retrieve = a.retrieve + b.retrieve; t.match = a.match + b.match; t.solve = a.solve + b.solve
        t.refine = a.refine + b.refine; t.verify = a.verify + b.verify; t.total = a.total + b.total
        t.guided = a.guided + b.guided; t.judging = a.judging + b.judging
        return t
    }

    private enum CodingKeys: String, CodingKey { case decode, deblur, extract, retrieve, match, solve, refine, verify, total }

    /// Stages a file does not name (results written before a stage existed) read as 0.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        func v(_ k: CodingKeys) throws -> Double { try c.decodeIfPresent(Double.self, forKey: k) ?? 0 }
        decode = try v(.decode); deblur = try v(.deblur); extract = try v(.extract); retrieve = try v(.retrieve); match = try v(.match)
        solve = try v(.solve); refine = try v(.refine); verify = try v(.verify); total = try v(.total)
    }
}

/// The outcome of localizing one image against a map.
public struct LocalizationResult: Sendable, Hashable, Codable {
    public enum Status: String, Sendable, Hashable, Codable {
        /// A pose was found and passed every acceptance check.
        case localized
        /// No pose passed the acceptance checks; `reason` says which failed.
        case rejected
    }

    public var status: Status
    /// `T_map_camera`, present when localized.
    public var pose: Pose?
    /// The map section the camera is in, present when localized.
    public var sectionId: String?
    /// 2D–3D correspondences that agree with the pose.
    public var inliers: Int
    /// Tentative 2D–3D correspondences fed to the robust solver.
    public var matches: Int
    /// RMS reprojection error of the inliers, in pixels.
    public var reprojectionError: Double
    /// Why the frame was rejected, when it was.
    public var reason: String?
    /// Whether the tracking prior was used (guided matching) or global retrieval.
    public var usedPrior: Bool
    public var timings: StageTimings
    /// Bounds on the pose's error, present when localized (see `PoseAccuracy`).
    public var accuracy: PoseAccuracy?
    /// How strong the evidence for the pose is (for the strongest candidate pose, when
    /// rejected; nil when no pose was found at all).
    public var evidence: PoseEvidence?
    /// The pose on the earth (OGC GeoPose Basic-Quaternion; camera axes as `GeoPose`
    /// states), present when localized in a georeferenced map.
    public var geoPose: GeoPose?
    /// Bounds at probability 0.95 on the GeoPose's error, in metres and degrees: the pose's own bounds
    /// (`accuracy`, scaled to metres) and the georeference's (`Georeference.bounds(at:)`)
    /// taken together. Present with `geoPose`.
    public var geoAccuracy: PoseAccuracy?
    /// What the frame's location prior did (`LocationPrior`), when it came with one.
    public var locationPrior: LocationPriorUse?
    /// The inlier 2D–3D matches of the pose found (of the strongest attempt, when
    /// rejected): for drawing them over the image (the batch report does, for its worst
    /// frames). Not written to JSON: a results file stays one short line per frame.
    public var inlierMatches: [InlierMatch] = []

    /// One inlier: a keypoint of the image and the map point it matched.
    public struct InlierMatch: Sendable, Hashable {
        /// Keypoint position in the image as stored (pixels, distortion not removed).
        public var pixel: SIMD2<Float>
        /// Index of the map point (`VPSMap.points`).
        public var point: Int32

        public init(pixel: SIMD2<Float>, point: Int32) { self.pixel = pixel; self.point = point }
    }

    private enum CodingKeys: String, CodingKey {
        case status, pose, sectionId, inliers, matches, reprojectionError, reason, usedPrior, timings, accuracy, evidence
        case geoPose, geoAccuracy, locationPrior
    }

    public init(status: Status, pose: Pose? = nil, sectionId: String? = nil, inliers: Int = 0, matches: Int = 0,
                reprojectionError: Double = 0, reason: String? = nil, usedPrior: Bool = false,
                timings: StageTimings = StageTimings()) {
        self.status = status; self.pose = pose; self.sectionId = sectionId; self.inliers = inliers
        self.matches = matches; self.reprojectionError = reprojectionError; self.reason = reason
        self.usedPrior = usedPrior; self.timings = timings
    }

    public var isLocalized: Bool { status == .localized }
}

/// How far a localized pose may be from the truth: 95 % bounds, as ARCore Geospatial reports
/// its horizontal and heading accuracy. The true camera centre lies within `position` of
/// the answer's, and the true orientation within `rotationDegrees` of its, in 95 % of
/// answers (what `arcloud localize` measures as "within claimed accuracy" on frames with
/// ground truth).
public struct PoseAccuracy: Sendable, Hashable, Codable {
    /// Bound on the camera centre's error, map units (metres on a metric map).
    public var position: Double
    /// Bound on the rotation error (the angle of R_trueᵀ R), degrees.
    public var rotationDegrees: Double

    public init(position: Double, rotationDegrees: Double) {
        self.position = position; self.rotationDegrees = rotationDegrees
    }

    /// Why these cannot be bounds (a negative or non-finite number), or nil when they can.
    public var problem: String? {
        position.isFinite && position >= 0 && rotationDegrees.isFinite && rotationDegrees >= 0 ? nil
            : "an accuracy's position and rotationDegrees must be finite and not negative"
    }

    /// Whether a pose off by `translation` (map units) and `rotationDegrees` lies within these bounds.
    public func contains(translation: Double, rotationDegrees r: Double) -> Bool {
        translation <= position && r <= rotationDegrees
    }
}

/// The evidence behind a pose: how unlikely its matches are by chance, and how well its
/// inliers determine it.
public struct PoseEvidence: Sendable, Hashable, Codable {
    /// log₁₀ of the number of false alarms of the global matches under the pose (see
    /// `EvidenceSignificance`): −6 means one pose in a million would gather such support by
    /// chance.
    public var log10NFA: Double
    /// The global matches the test saw, and how many of them are inliers at the radius that
    /// gave the least NFA (`radius`, level-0 pixels per unit keypoint sigma).
    public var globalMatches = 0, globalInliers = 0
    public var radius = 0.0
    /// Mean chance of a global match being an inlier by chance at that radius.
    public var background = 0.0
    /// The best other local optimum of the global matches: its NFA and inliers.
    public var rivalNFA = Double.infinity, rivalInliers = 0
    /// The image regions where the map expects structure, how many of them the pose's
    /// distinctive inliers explain, and how many distinctive inliers it has.
    public var coverage: Coverage?
    public struct Coverage: Sendable, Hashable, Codable {
        public var explained: Int, expected: Int, distinctiveInliers: Int

        package init(explained: Int, expected: Int, distinctiveInliers: Int) {
            self.explained = explained; self.expected = expected; self.distinctiveInliers = distinctiveInliers
        }
    }
    /// Standard deviation of the pose's worst-determined rotation axis, degrees.
    public var rotationSigmaDegrees: Double
    /// Standard deviation of the camera centre along its worst direction, as a fraction of
    /// the map's scale (`MapScale`).
    public var positionSigma: Double
    /// √(χ²/dof) of the inliers' residuals under the keypoint and map-point noise model (1:
    /// as modelled; 2: twice the noise); the deviations above are scaled by it.
    public var residualScale = 1.0
    /// The candidate pose when the frame was rejected (nil when localized: see `pose`).
    public var candidate: Pose?

    public init(log10NFA: Double, rotationSigmaDegrees: Double, positionSigma: Double, candidate: Pose? = nil) {
        self.log10NFA = log10NFA; self.rotationSigmaDegrees = rotationSigmaDegrees
        self.positionSigma = positionSigma; self.candidate = candidate
    }
}

extension PoseEvidence {
    private enum CodingKeys: String, CodingKey {
        case log10NFA, globalMatches, globalInliers, radius, background, rivalNFA, rivalInliers
        case rotationSigmaDegrees, positionSigma, residualScale, candidate, coverage
    }

    /// Infinite values (no rival, an undetermined pose) are left out: JSON has no infinity.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        func finite(_ v: Double, _ k: CodingKeys) throws { if v.isFinite { try c.encode(v, forKey: k) } }
        try finite(log10NFA, .log10NFA)
        try c.encode(globalMatches, forKey: .globalMatches)
        try c.encode(globalInliers, forKey: .globalInliers)
        try finite(radius, .radius)
        try finite(background, .background)
        try finite(rivalNFA, .rivalNFA)
        try c.encode(rivalInliers, forKey: .rivalInliers)
        try finite(rotationSigmaDegrees, .rotationSigmaDegrees)
        try finite(positionSigma, .positionSigma)
        try finite(residualScale, .residualScale)
        try c.encodeIfPresent(candidate, forKey: .candidate)
        try c.encodeIfPresent(coverage, forKey: .coverage)
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        func value(_ k: CodingKeys) throws -> Double { try c.decodeIfPresent(Double.self, forKey: k) ?? .infinity }
        self.init(log10NFA: try value(.log10NFA), rotationSigmaDegrees: try value(.rotationSigmaDegrees),
                  positionSigma: try value(.positionSigma), candidate: try c.decodeIfPresent(Pose.self, forKey: .candidate))
        globalMatches = try c.decodeIfPresent(Int.self, forKey: .globalMatches) ?? 0
        globalInliers = try c.decodeIfPresent(Int.self, forKey: .globalInliers) ?? 0
        radius = try c.decodeIfPresent(Double.self, forKey: .radius) ?? 0
        background = try c.decodeIfPresent(Double.self, forKey: .background) ?? 0
        rivalNFA = try value(.rivalNFA)
        rivalInliers = try c.decodeIfPresent(Int.self, forKey: .rivalInliers) ?? 0
        coverage = try c.decodeIfPresent(Coverage.self, forKey: .coverage)
        residualScale = try c.decodeIfPresent(Double.self, forKey: .residualScale) ?? 1
    }
}
