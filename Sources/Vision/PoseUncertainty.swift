public import Geometry
import VisionCore

/// How well a set of inlier correspondences pins a pose down, and the bounds on its
/// error that a localized answer publishes.
///
/// What makes the estimate honest rather than formal:
/// - each inlier's residual covariance holds its keypoint noise (per pyramid level) and its
///   map point's own triangulation covariance seen through the projection, so a point whose
///   depth the map hardly knows informs the pose only across its ray;
/// - the covariance is scaled by the variance factor of the inliers' own residuals
///   (χ²/dof, at least 1): if they scatter 2 px where 1 px was assumed, the pose is twice as
///   uncertain;
/// - the camera's calibration accuracy (`intrinsicsSigma`), which moves every projection
///   together, is propagated to the pose;
/// - a delete-a-group jackknife over image regions (`groups`) measures how far the pose
///   moves when each region is left out (one Gauss–Newton step from the full solution):
///   errors correlated within a region (a facade matched one window along, a patch of points
///   triangulated at the same wrong depth) move it, though every inlier fits.
/// Each bound is the quantile of the error's length under the formal covariance, or under
/// the jackknife's widened for its degrees of freedom, whichever is larger.
public struct PoseUncertainty: Sendable, Hashable {
    /// Standard deviation of the worst-determined rotation axis, degrees.
    public var rotationDegrees: Double
    /// Standard deviation of the camera centre along its worst direction, world units.
    public var centre: Double
    /// √(χ²/dof) of the inliers under the noise model, at least 1.
    public var residualScale: Double
    /// The image regions the jackknife left out in turn; 0 when it did not run.
    public var jackknifeGroups: Int
    /// False when the correspondences do not determine the pose (fewer than three, or
    /// degenerate); both deviations are then infinite.
    public var isDetermined: Bool
    /// The pose the bounds describe: when the jackknife ran, the weighted least-squares pose
    /// under this noise model (a few Gauss–Newton steps from the pose given, with each
    /// inlier weighted by its keypoint and map-point covariance); else the pose given.
    public var pose: CameraFromWorld?
    /// The formal covariance of the pose's error (ω, δ), where a world point X lies in the
    /// camera at exp(ω)·R·X + t + δ for the pose's rotation R and translation t: 6 × 6,
    /// row-major, radians and world units, scaled by `residualScale`²; the jackknife does not
    /// enter it. Empty when not measured.
    public var covariance: [Double] = []

    /// A bound on the camera centre's error, world units, that holds together with
    /// `rotationBound95Degrees` in 95 % of answers (each alone in 97.5 %): the quantile of
    /// the error's length under the formal covariance, or under the jackknife's widened for
    /// its degrees of freedom, whichever is larger.
    public var centreBound95: Double
    /// The bound on the rotation error, degrees (likewise).
    public var rotationBound95Degrees: Double

    /// √(χ²₃ at 97.5 %): an error vector whose covariance has largest eigenvalue σ² lies
    /// within this many σ with probability at least 97.5 % (the bounds of an estimate given
    /// by its deviations alone).
    public static let bound95Factor = 3.0575159205629903

    public init(rotationDegrees: Double, centre: Double, residualScale: Double = 1, jackknifeGroups: Int = 0,
                rotationBound95Degrees: Double? = nil, centreBound95: Double? = nil, isDetermined: Bool) {
        self.rotationDegrees = rotationDegrees; self.centre = centre; self.residualScale = residualScale
        self.jackknifeGroups = jackknifeGroups; self.isDetermined = isDetermined
        self.rotationBound95Degrees = rotationBound95Degrees ?? Self.bound95Factor * rotationDegrees
        self.centreBound95 = centreBound95 ?? Self.bound95Factor * centre
    }

    /// The uncertainty of `pose` given `pixels[i]` (undistorted) observing `worldPoints[i]`,
    /// all taken as inliers.
    /// - Parameters:
    ///   - noise: the keypoints' position noise in level-0 pixels (one standard deviation).
    ///   - sigmas: empty, or each keypoint's noise relative to level 0 (`scaleFactor^octave`).
    ///   - pointCovariances: empty, or each world point's covariance (world units²).
    ///   - groups: empty, or each correspondence's image region for the jackknife (negative:
    ///     none); it runs when at least four regions hold two inliers or more.
    ///   - gravity: the measured gravity in camera coordinates, with `gravitySigmaDegrees`,
    ///     when the pose was solved with it as a prior.
    ///   - intrinsicsSigma: nil, or the standard deviations of fx, fy, cx, cy (pixels): how
    ///     well the camera is calibrated. Their first-order effect on the pose adds to the
    ///     covariance and to both bounds.
    public init(of pose: CameraFromWorld, pixels: [SIMD2<Double>], worldPoints: [SIMD3<Double>],
                camera: CameraIntrinsics, noise: Double = 1, sigmas: [Double] = [], pointCovariances: [Matrix3] = [],
                groups: [Int32] = [], gravity: SIMD3<Double>? = nil, gravitySigmaDegrees: Double = 0.5,
                intrinsicsSigma: SIMD4<Double>? = nil) throws(VisionError) {
        let n = pixels.count
        guard worldPoints.count == n, sigmas.isEmpty || sigmas.count == n,
              pointCovariances.isEmpty || pointCovariances.count == n, groups.isEmpty || groups.count == n,
              noise > 0, noise.isFinite else {
            throw VisionError(.invalidArgument, "\(n) pixels, \(worldPoints.count) world points, \(sigmas.count) sigmas, "
                              + "\(pointCovariances.count) point covariances, \(groups.count) groups, noise \(noise)")
        }
        let scaled = sigmas.isEmpty ? [Double](repeating: noise, count: n) : sigmas.map { $0 * noise }
        var cam = vc_pinhole(fx: camera.fx, fy: camera.fy, cx: camera.cx, cy: camera.cy)
        let r = pose.rotation.rowMajor
        let t = [pose.translation.x, pose.translation.y, pose.translation.z]
        let down = gravity.map { [$0.x, $0.y, $0.z] } ?? []
        let world = packXYZ(worldPoints)
        // Packed into one buffer: a six-element array per point would allocate per inlier.
        let covariances = [Double](unsafeUninitializedCapacity: 6 * pointCovariances.count) { buf, count in
            for (i, c) in pointCovariances.enumerated() {
                buf[6 * i] = c.r0.x; buf[6 * i + 1] = c.r0.y; buf[6 * i + 2] = c.r0.z
                buf[6 * i + 3] = c.r1.y; buf[6 * i + 4] = c.r1.z; buf[6 * i + 5] = c.r2.z
            }
            count = 6 * pointCovariances.count
        }
        let calibration = intrinsicsSigma.map { [$0.x, $0.y, $0.z, $0.w] } ?? []
        var out = vc_pose_uncertainty()
        let status = pixels.withUnsafeBufferPointer { p2 in
            p2.withMemoryRebound(to: Double.self) { p in
                covariances.withUnsafeBufferPointer { pc in
                    groups.withUnsafeBufferPointer { g in
                        down.withUnsafeBufferPointer { d in
                            calibration.withUnsafeBufferPointer { k in
                                vc_pose_covariance(&cam, p.baseAddress, world, scaled, pc.isEmpty ? nil : pc.baseAddress,
                                                   g.isEmpty ? nil : g.baseAddress, Int32(n), r, t,
                                                   d.isEmpty ? nil : d.baseAddress, gravitySigmaDegrees,
                                                   k.isEmpty ? nil : k.baseAddress, &out)
                            }
                        }
                    }
                }
            }
        }
        try VisionError.check(status)
        self.init(rotationDegrees: out.rotation_sigma_rad * 180 / .pi, centre: out.centre_sigma,
                  residualScale: out.residual_scale, jackknifeGroups: Int(out.jackknife_groups),
                  rotationBound95Degrees: out.rotation_bound95_rad * 180 / .pi, centreBound95: out.centre_bound95,
                  isDetermined: out.determined != 0)
        let rr = withUnsafeBytes(of: out.refined_R_cw) { Array($0.bindMemory(to: Double.self)) }
        let rt = withUnsafeBytes(of: out.refined_t_cw) { Array($0.bindMemory(to: Double.self)) }
        self.pose = CameraFromWorld(rotation: Matrix3(rowMajor: rr), translation: SIMD3(rt[0], rt[1], rt[2]))
        if isDetermined { covariance = withUnsafeBytes(of: out.covariance) { Array($0.bindMemory(to: Double.self)) } }
    }

    /// Each pixel's region in a `columns` × `rows` grid over an image of `width` × `height`
    /// (the jackknife's groups: errors that are correlated are mostly near one another).
    public static func gridRegions(of pixels: [SIMD2<Double>], width: Int, height: Int, columns: Int = 6,
                                   rows: Int = 6) -> [Int32] {
        let cw = Double(max(width, 1)) / Double(columns), ch = Double(max(height, 1)) / Double(rows)
        return pixels.map { p in
            let c = min(max(Int(p.x / cw), 0), columns - 1), r = min(max(Int(p.y / ch), 0), rows - 1)
            return Int32(r * columns + c)
        }
    }
}
