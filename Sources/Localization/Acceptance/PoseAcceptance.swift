import Foundation
import MapModel
import VPSModel
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
/// 3. **Is it the only explanation?** No significant pose far enough to be wrong may be
///    about as significant (`isRivalAsSignificant`), and none beyond the promised accuracy
///    may fit the global matches about as well (`rivalFitsAsWell`) unless the guided passes
///    started from it come back to the pose: a planar patch's mirror solution, the same
///    facade one window along, or a smeared wall seen a few degrees turned fits much the
///    same matches. When they do come back, the answer's bounds are widened to reach where
///    they came back to (`reaching`), and must still lie within `tolerance`.
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
    /// Rivals beyond this region around the pose are far enough to be wrong: one there must
    /// be at least 10^`rivalMargin` times less significant than the pose (its NFA measured
    /// at the pose's inlier radius), whatever its fit (`isRivalAsSignificant`).
    public var rivalRegion = RelativeTolerance(scales: 0.1, degrees: 10)
    public var rivalMargin = 5.0
    /// A rival beyond `tolerance` whose fit to the global matches lies within this
    /// probability region of the pose's (a likelihood-ratio test) cannot be told from it
    /// (`rivalFitsAsWell`): the pose is then not placed, however its own bounds look. The
    /// bounds' probability (in (0, 1)).
    public var rivalFitProbability = 0.95

    /// Whether a rival beyond `rivalRegion` is significant and within 10^`rivalMargin` of
    /// the pose's NFA: far enough to be wrong and about as well supported.
    func isRivalAsSignificant(rivalLog10NFA: Double, poseLog10NFA: Double) -> Bool {
        rivalLog10NFA <= maxLog10NFA && rivalLog10NFA - poseLog10NFA < rivalMargin
    }

    /// Whether a significant rival fits the global matches about as well as the pose: its
    /// −2 log-likelihood of them exceeds the pose's by `worseFit` (in keypoint noise units;
    /// ≤ 0 when it fits them better), less than the χ² quantile at `rivalFitProbability`
    /// for the pose's `freeParameters` (6, or 4 when gravity fixes the tilt). By Wilks'
    /// theorem that statistic of a pose near the truth is χ² with that many degrees of
    /// freedom: the matches cannot tell such a rival from the pose.
    func rivalFitsAsWell(rivalLog10NFA: Double, worseFit: Double, freeParameters: Int) -> Bool {
        rivalLog10NFA <= maxLog10NFA
            && worseFit < Self.chiSquareQuantile(rivalFitProbability, degreesOfFreedom: freeParameters)
    }

    /// `bound`, a pose's 95 % error bound, widened to reach the pose the guided passes grow
    /// to from a rival that fits the global matches as well (`rivalFitsAsWell`), `d` away
    /// from the answer. The matches cannot tell the two starts apart, so the truth may lie
    /// by either growth: the answer's error is within their distance plus the other's own
    /// error, which `bound` bounds as well (the triangle inequality, as in the inherited
    /// seed error's first step).
    func reaching(_ bound: PoseAccuracy, rivalGrowth d: (translation: Double, rotationDegrees: Double)) -> PoseAccuracy {
        PoseAccuracy(position: bound.position + d.translation, rotationDegrees: bound.rotationDegrees + d.rotationDegrees)
    }

    /// Whether `accuracy` lies within `tolerance` on a map whose scale is `scaleLength`.
    func promises(_ accuracy: PoseAccuracy, scaleLength: Double) -> Bool {
        accuracy.rotationDegrees <= tolerance.degrees && accuracy.position <= tolerance.scales * scaleLength
    }

    /// The χ² quantile at `p` (0 < p < 1) for an even number of degrees of freedom `k` (a
    /// pose has 4 or 6), where the distribution function has a closed form:
    /// 1 − e^(−x/2) Σ_{j < k/2} (x/2)^j / j!. Found by bisection (it rises with x).
    static func chiSquareQuantile(_ p: Double, degreesOfFreedom k: Int) -> Double {
        precondition(k > 0 && k % 2 == 0, "even degrees of freedom only")
        guard p > 0 else { return 0 }
        guard p < 1 else { return .infinity }
        func cdf(_ x: Double) -> Double {
            var term = 1.0, sum = 1.0
            for j in Swift.stride(from: 1, to: k / 2, by: 1) { term *= x / 2 / Double(j); sum += term }
            return 1 - exp(-x / 2) * sum
        }
        var lo = 0.0, hi = Double(k)
        while cdf(hi) < p { lo = hi; hi *= 2 }
        for _ in 0..<200 where hi - lo > 1e-12 * hi {
            let mid = 0.5 * (lo + hi)
            if cdf(mid) < p { lo = mid } else { hi = mid }
        }
        return 0.5 * (lo + hi)
    }

    /// Guided inliers within this Hamming distance of their map point are distinctive:
    /// guided matching admits any descriptor within `LocalizerOptions.guidedMaxDistance`
    /// near a predicted projection, which random texture offers around any pose.
    public var distinctiveDistance = 40
    /// Which image regions the map expects structure in, and how many may go unexplained.
    var coverage = ImageCoverage()

    public init() {}
}
