public import Geometry
import VisionCore

/// How well a set of inlier correspondences pins a pose down: the first-order covariance
/// of the pose (the inverse of the Gauss–Newton information matrix at the pose), reduced to
/// the standard deviations of its worst-determined rotation axis and camera-centre
/// direction.
///
/// A dozen inliers spread over the image fix a pose to a fraction of a degree; the same
/// dozen on one small patch, or all far away, leave rotation and translation trading
/// against each other, and the pose may then be far off while every inlier fits.
public struct PoseUncertainty: Sendable, Hashable {
    /// Standard deviation of the worst-determined rotation axis, degrees.
    public var rotationDegrees: Double
    /// Standard deviation of the camera centre along its worst direction, world units.
    public var centre: Double
    /// False when the correspondences do not determine the pose (fewer than three, or
    /// degenerate); both deviations are then infinite.
    public var isDetermined: Bool

    public init(rotationDegrees: Double, centre: Double, isDetermined: Bool) {
        self.rotationDegrees = rotationDegrees; self.centre = centre; self.isDetermined = isDetermined
    }

    /// The uncertainty of `pose` given `pixels[i]` (undistorted) observing `worldPoints[i]`,
    /// all taken as inliers.
    /// - Parameters:
    ///   - noise: the keypoints' position noise in level-0 pixels (one standard deviation).
    ///   - sigmas: empty, or each keypoint's noise relative to level 0 (`scaleFactor^octave`).
    ///   - pointSigmas: empty, or each world point's own uncertainty as seen in this image
    ///     (pixels), added in quadrature to its keypoint's noise.
    ///   - gravity: the measured gravity in camera coordinates, with `gravitySigmaDegrees`,
    ///     when the pose was solved with it as a prior.
    public init(of pose: CameraFromWorld, pixels: [SIMD2<Double>], worldPoints: [SIMD3<Double>],
                camera: CameraIntrinsics, noise: Double = 1, sigmas: [Double] = [], pointSigmas: [Double] = [],
                gravity: SIMD3<Double>? = nil, gravitySigmaDegrees: Double = 0.5) throws(VisionError) {
        let n = pixels.count
        guard worldPoints.count == n, sigmas.isEmpty || sigmas.count == n, pointSigmas.isEmpty || pointSigmas.count == n,
              noise > 0, noise.isFinite else {
            throw VisionError(.invalidArgument, "\(n) pixels, \(worldPoints.count) world points, \(sigmas.count) sigmas, "
                              + "\(pointSigmas.count) point sigmas, noise \(noise)")
        }
        let scaled = sigmas.isEmpty ? [Double](repeating: noise, count: n) : sigmas.map { $0 * noise }
        var cam = vc_pinhole(fx: camera.fx, fy: camera.fy, cx: camera.cx, cy: camera.cy)
        let r = pose.rotation.rowMajor
        let t = [pose.translation.x, pose.translation.y, pose.translation.z]
        let down = gravity.map { [$0.x, $0.y, $0.z] } ?? []
        let world = packXYZ(worldPoints)
        var out = vc_pose_uncertainty()
        let status = pixels.withUnsafeBufferPointer { p2 in
            p2.withMemoryRebound(to: Double.self) { p in
                pointSigmas.withUnsafeBufferPointer { ps in
                    down.withUnsafeBufferPointer { g in
                        vc_pose_covariance(&cam, p.baseAddress, world, scaled, ps.isEmpty ? nil : ps.baseAddress,
                                           Int32(n), r, t, g.isEmpty ? nil : g.baseAddress, gravitySigmaDegrees, &out)
                    }
                }
            }
        }
        try VisionError.check(status)
        self.init(rotationDegrees: out.rotation_sigma_rad * 180 / .pi, centre: out.centre_sigma,
                  isDetermined: out.determined != 0)
    }
}
