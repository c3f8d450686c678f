import Vision

/// Tuning of the localizer. The defaults are what the shipped benchmarks and tests use.
public struct LocalizerOptions: Sendable, Hashable {
    /// ORB on the query image.
    public var orb = ORBOptions(featureCount: 1000)
    /// Lowe ratio for global (vocabulary) matching.
    public var globalRatio: Float = 0.8
    /// Vocabulary depth whose nodes group candidate points for global matching; nil means
    /// one level above the leaves (about 30 candidates per feature on a 30k-point map:
    /// better recall than exact words, still a tiny fraction of the map).
    public var candidateDepth: Int? = nil
    /// When global matching at `candidateDepth` finds no acceptable pose, try once more one
    /// level coarser (about 10× the candidates: slower, but only for hard frames).
    public var fallbackToCoarserCandidates = true
    /// Guided matching by projecting map points with a pose (tracking prior, or the
    /// first estimate in the guided pass), over the local map.
    public var priorSearch = ProjectionSearch(radius: 20, maxCandidatesPerKeypoint: 8)
    /// Guided passes after the first pose, widest first; each later pass projects only the
    /// points the previous pass found near some keypoint, and runs only while the poses
    /// still move (`guidedConvergencePixels`). The second, tighter pass keeps blurred
    /// frames accurate: one 12 px pass left a blurred frame 22 cm off, these leave it under 7 cm.
    public var refineSearches = [ProjectionSearch(radius: 16, maxCandidatesPerKeypoint: 6),
                                 ProjectionSearch(radius: 6, maxCandidatesPerKeypoint: 4)]
    /// The guided passes stop once a pass moves its inliers' projections by less than this
    /// (mean, pixels): the next, tighter pass would find the same matches.
    public var guidedConvergencePixels = 1.0
    /// A pose found around a tracking prior must lie this close to it to count as a fix
    /// (odometry drifts centimetres between fixes, not metres).
    public var priorTolerance = ErrorThreshold(metres: 0.3, degrees: 5)
    /// A guided pass may move the pose only while this fraction of the first pose's
    /// inliers stays inliers.
    public var minEvidenceSupport = 0.8
    /// Lowe ratio for guided matching (candidates are already few and near).
    public var guidedRatio: Float = 0.9
    /// Guided matches farther than this Hamming distance are dropped.
    public var guidedMaxDistance = 80
    /// Inliers seen farther than this (degrees) from their mapped viewing direction are
    /// implausible: ORB does not match across such a change of viewpoint.
    public var maxViewingAngle = 75.0
    /// Robust pose solve.
    public var ransac = RansacOptions(threshold: 4, confidence: 0.999, maxIterations: 1000)
    /// Acceptance: at least this many inliers…
    public var minInliers = 20
    /// …making up at least this fraction of the tentative matches…
    public var minInlierRatio = 0.15
    /// …with at most this RMS reprojection error (pixels).
    public var maxReprojectionError = 2.5
    /// Frames whose best global pose falls short of `minInliers` (blur, dim light) may
    /// still be placed by growing that pose with guided matching, under stricter checks.
    public var weakSeed = WeakSeedOptions()
    /// Images larger than this many pixels are refused before decoding.
    public var maxImagePixels = 40_000_000

    public init() {}
}

/// When and how a pose with too few inliers is grown and confirmed (see `LocalizerOptions.weakSeed`).
public struct WeakSeedOptions: Sendable, Hashable {
    /// Global inliers needed to try growing a pose; `Int.max` turns weak seeds off.
    public var minInliers = 8
    /// The seed's inliers must span at least this share of the image (see
    /// `ImageCoverage.spread`): a compact seed is one object, which may hang elsewhere too.
    public var minSpread = 0.05
    /// Inliers the grown pose needs…
    public var minGrownInliers = 50
    /// …as a fraction of its guided matches…
    public var minGrownInlierRatio = 0.65
    /// …its camera must be within this distance (metres) of a mapping keyframe…
    public var maxDistanceToKeyframes = 3.0
    /// …and it must explain the image regions where the map predicts structure.
    var coverage = ImageCoverage()

    public init() {}
}
