import MapModel
/// When a pose found from global matches counts. Four questions, each with its own
/// measure, and none a fixed inlier count:
///
/// 1. **Is the evidence more than chance?** The global matches' inliers under the pose are
///    tested a contrario (`EvidenceSignificance`): the expected number of poses that would
///    gather such support by chance (NFA) must be at most 10^`maxLog10NFA`.
/// 2. **Is the pose determined?** Its error bounds (`PoseUncertainty`: keypoint noise,
///    each map point's own triangulation covariance, the residuals' variance factor and a
///    jackknife over image regions) must lie within `tolerance`: a dozen inliers on one
///    small patch, or on points whose depth the map hardly knows, leave rotation and
///    translation trading against each other, and the pose may then be far off while every
///    inlier fits. A pose grown by guided passes carries besides the error it inherits from
///    the global matches it was grown from (`Localizer.inheritingSeedError`): guided
///    matches are found where that pose predicted them, and on repeated texture they follow
///    it. The same bounds are the answer's published `accuracy`.
/// 3. **Is it the only explanation?** No pose outside `rivalRegion` may be significant too
///    and within 10^`rivalMargin` of its NFA: a planar patch's mirror solution, or the same
///    facade one window along, fits much the same matches.
/// 4. **Does it explain the image?** The map predicts which image regions show mapped
///    structure; the pose's distinctive inliers must cover them (`coverage`). A look-alike
///    — the same poster in another building — is a strong, unique, well-determined pose on
///    one patch that leaves the rest of the image unexplained.
///
/// On the real-photo splits and the synthetic negatives these separated every right pose
/// placed from every wrong or look-alike one (see docs/localizer.md for the measurements).
public struct PoseAcceptance: Sendable, Hashable {
    /// log₁₀ of the largest number of false alarms accepted: 10⁻³ is fewer than one pose
    /// per thousand frames that chance alone would support this well.
    public var maxLog10NFA = -3.0
    /// The accuracy a placed pose promises: an angle and a distance in map scales
    /// (`MapScale`).
    public var tolerance = RelativeTolerance(scales: 0.02, degrees: 2)
    /// Keypoint position noise at pyramid level 0, pixels (one standard deviation).
    public var keypointNoise = 1.0
    /// How well a query camera's intrinsics are known, one standard deviation: the focal
    /// lengths as a fraction of themselves, the principal point in pixels. A calibrated
    /// camera (OpenCV, COLMAP, a phone's factory calibration) is good to a few tenths of a
    /// percent and a pixel or two; the error moves every projection together, which no
    /// residual shows, and adds to the pose's bounds.
    public var focalUncertainty = 0.002
    public var principalPointUncertainty = 1.0
    /// Poses outside this region around the pose are rivals: far enough to be wrong.
    public var rivalRegion = RelativeTolerance(scales: 0.1, degrees: 10)
    /// A significant rival must be at least 10^`rivalMargin` times less significant than
    /// the pose (its NFA measured at the pose's inlier radius).
    public var rivalMargin = 5.0
    /// Guided inliers within this Hamming distance of their map point are distinctive:
    /// guided matching admits any descriptor within `LocalizerOptions.guidedMaxDistance`
    /// near a predicted projection, which random texture offers around any pose.
    public var distinctiveDistance = 40
    /// Which image regions the map expects structure in, and how many may go unexplained.
    var coverage = ImageCoverage()

    public init() {}
}
