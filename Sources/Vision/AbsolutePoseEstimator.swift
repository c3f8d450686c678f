public import Geometry
import VisionCore

/// Robust loss for pose refinement, with its scale in pixels.
public enum RobustLoss: Sendable, Hashable {
    /// Plain least squares.
    case trivial
    case huber(scale: Double)
    case cauchy(scale: Double)

    var cKind: Int32 {
        switch self {
        case .trivial: Int32(VC_LOSS_TRIVIAL.rawValue)
        case .huber: Int32(VC_LOSS_HUBER.rawValue)
        case .cauchy: Int32(VC_LOSS_CAUCHY.rawValue)
        }
    }
    var scale: Double {
        switch self {
        case .trivial: 1
        case .huber(let s), .cauchy(let s): s
        }
    }
}

/// Options of the robust absolute pose solve.
public struct RansacOptions: Sendable, Hashable {
    /// Inlier threshold on reprojection error, pixels.
    public var threshold: Double = 4
    /// Sampling stops once an all-inlier sample was drawn with this probability.
    public var confidence: Double = 0.999
    public var maxIterations: Int = 10000
    public var minIterations: Int = 0
    /// Seed of the random sampler: the same input and seed give the same result.
    public var seed: UInt64 = 0x5EED
    /// Levenberg–Marquardt on the inliers of every new best model (LO-RANSAC).
    public var localOptimization: Bool = true
    /// Robust LM on the final inliers; nil skips it. The default, Huber at the default
    /// threshold, is least squares on the inliers with bounded influence near the threshold.
    public var refinementLoss: RobustLoss? = .huber(scale: 4)
    /// When a gravity is passed to `estimate`: its standard deviation in degrees, the
    /// weight of the gravity prior in the refinements (a phone IMU: a fraction of a degree).
    public var gravitySigmaDegrees: Double = 0.5

    public init(threshold: Double = 4, confidence: Double = 0.999, maxIterations: Int = 10000,
                minIterations: Int = 0, seed: UInt64 = 0x5EED, localOptimization: Bool = true,
                refinementLoss: RobustLoss? = .huber(scale: 4)) {
        self.threshold = threshold; self.confidence = confidence
        self.maxIterations = maxIterations; self.minIterations = minIterations
        self.seed = seed; self.localOptimization = localOptimization
        self.refinementLoss = refinementLoss
    }

    var cOptions: vc_ransac_options {
        var o = vc_ransac_default_options()
        o.threshold_px = threshold
        o.confidence = confidence
        o.max_iterations = Int32(clamping: maxIterations)
        o.min_iterations = Int32(clamping: minIterations)
        o.seed = seed
        o.local_optimization = localOptimization ? 1 : 0
        o.final_refinement = refinementLoss == nil ? 0 : 1
        o.loss = refinementLoss?.cKind ?? 0
        o.loss_scale_px = refinementLoss?.scale ?? 1
        return o
    }
}

/// A world → camera transform: `X_cam = rotation * X_world + translation`.
public struct CameraFromWorld: Sendable, Hashable {
    public var rotation: Matrix3
    public var translation: SIMD3<Double>

    public init(rotation: Matrix3, translation: SIMD3<Double>) {
        self.rotation = rotation; self.translation = translation
    }

    /// From a camera pose `T_map_camera`.
    public init(_ pose: Pose) {
        let rt = pose.rotation.matrix.transposed
        self.init(rotation: rt, translation: -(rt * pose.translation))
    }

    /// The camera pose `T_map_camera` (camera → world).
    public var pose: Pose {
        let rt = rotation.transposed
        return Pose(rotationMatrix: rt, translation: -(rt * translation))
    }

    public func apply(_ x: SIMD3<Double>) -> SIMD3<Double> { rotation * x + translation }
}

/// The result of a robust pose solve.
public struct PoseEstimate: Sendable, Hashable {
    /// `T_map_camera`: camera → world.
    public var pose: Pose
    /// The same pose as world → camera.
    public var cameraFromWorld: CameraFromWorld
    /// One flag per input correspondence: inlier of the final pose.
    public var inliers: [Bool]
    public var inlierCount: Int
    /// RANSAC samples drawn.
    public var iterations: Int
    /// Local optimisations run.
    public var refinements: Int
    /// RMS reprojection error over the inliers, pixels.
    public var rmsError: Double
}

/// Absolute camera pose from 2D–3D correspondences: Lambda Twist P3P in LO-RANSAC with an
/// adaptive iteration count, then robust Levenberg–Marquardt on SE(3). Pixels must be
/// undistorted (see `CameraIntrinsics.undistort`); only `fx fy cx cy` are used.
public struct AbsolutePoseEstimator: Sendable, Hashable {
    public var options: RansacOptions

    public init(options: RansacOptions = RansacOptions()) { self.options = options }

    /// Solves for the pose. `pixels[i]` observes `worldPoints[i]`; both arrays are read in
    /// place during the call. Throws `.noSolution` for fewer than 4 points or when no pose has
    /// 4 or more inliers (a P3P pose always fits its own 3 sample points),
    /// `.emptyInput` for no points, `.invalidArgument` for mismatched counts or bad options.
    ///
    /// `sigmas`, when not empty, gives each correspondence's position noise relative to
    /// pyramid level 0 (e.g. `scaleFactor^octave`): residuals are divided by it, so a
    /// coarse-level keypoint may lie farther from its projection and weighs less.
    ///
    /// `gravity`, when known (a phone's IMU), is world "down" — (0, −1, 0) in a map frame with
    /// +y up — in camera coordinates, any length. Hypotheses then come from the upright P2P
    /// solver: two-point samples find an all-inlier sample at inlier ratios where P3P's
    /// three-point samples would need thousands of draws. Refinement is 6-DoF with gravity as
    /// a prior (`RansacOptions.gravitySigmaDegrees`).
    public func estimate(pixels: [SIMD2<Double>], worldPoints: [SIMD3<Double>],
                         camera: CameraIntrinsics, sigmas: [Double] = [],
                         gravity: SIMD3<Double>? = nil) throws(VisionError) -> PoseEstimate {
        try estimate(pixels: pixels, worldPoints: worldPoints, camera: camera, sigmas: sigmas, gravity: gravity,
                     excluding: nil)
    }

    /// The region of pose space a rival search leaves out: rotations within
    /// `maxRotationDegrees` of `pose` whose camera centre lies within `maxCentreDistance`
    /// (world units) of its centre.
    public struct Exclusion: Sendable, Hashable {
        public var pose: CameraFromWorld
        public var maxRotationDegrees: Double
        public var maxCentreDistance: Double
        public init(around pose: CameraFromWorld, maxRotationDegrees: Double, maxCentreDistance: Double) {
            self.pose = pose; self.maxRotationDegrees = maxRotationDegrees; self.maxCentreDistance = maxCentreDistance
        }
    }

    /// The best pose outside `exclusion`: the search `estimate` runs, with every hypothesis
    /// locally optimised and dropped when it lies (before or after) inside the region. Around
    /// an accepted pose this finds the best *other* local optimum of the same matches — a
    /// rival that explains much of the same evidence (a planar patch's mirror solution, a
    /// repeated facade) says the evidence does not determine the pose. Nil when no pose
    /// outside the region has 4 inliers.
    public func rival(excluding exclusion: Exclusion, pixels: [SIMD2<Double>], worldPoints: [SIMD3<Double>],
                      camera: CameraIntrinsics, sigmas: [Double] = [],
                      gravity: SIMD3<Double>? = nil) throws(VisionError) -> PoseEstimate? {
        do {
            return try estimate(pixels: pixels, worldPoints: worldPoints, camera: camera, sigmas: sigmas,
                                gravity: gravity, excluding: exclusion)
        } catch where error.code == .noSolution {
            return nil
        }
    }

    private func estimate(pixels: [SIMD2<Double>], worldPoints: [SIMD3<Double>], camera: CameraIntrinsics,
                          sigmas: [Double], gravity: SIMD3<Double>?,
                          excluding exclusion: Exclusion?) throws(VisionError) -> PoseEstimate {
        guard pixels.count == worldPoints.count, sigmas.isEmpty || sigmas.count == pixels.count else {
            throw VisionError(.invalidArgument,
                              "\(pixels.count) pixels for \(worldPoints.count) world points and \(sigmas.count) sigmas")
        }
        let n = pixels.count
        let packed = packXYZ(worldPoints)  // SIMD3<Double> is padded to 32 bytes
        var cam = vc_pinhole(fx: camera.fx, fy: camera.fy, cx: camera.cx, cy: camera.cy)
        var opts = options.cOptions
        var result = vc_pose_result()
        var status = VC_OK
        let inliers = solveWithInlierMask(pixels: pixels) { m, p in
            packed.withUnsafeBufferPointer { p3 in
                sigmas.withUnsafeBufferPointer { sg in
                    let sgp = sg.isEmpty ? nil : sg.baseAddress
                    if var ex = exclusion.map(Self.cExclusion) {
                        let down = gravity.map { [$0.x, $0.y, $0.z] } ?? []
                        status = down.withUnsafeBufferPointer { d in
                            vc_pose_estimate_rival(&cam, p, p3.baseAddress, sgp, Int32(n),
                                                   d.isEmpty ? nil : d.baseAddress, options.gravitySigmaDegrees,
                                                   &ex, &opts, &result, m)
                        }
                    } else if let g = gravity {
                        let down = [g.x, g.y, g.z]
                        status = vc_pose_estimate_gravity(&cam, p, p3.baseAddress, sgp,
                                                          Int32(n), down, options.gravitySigmaDegrees,
                                                          &opts, &result, m)
                    } else {
                        status = vc_pose_estimate_weighted(&cam, p, p3.baseAddress, sgp,
                                                           Int32(n), &opts, &result, m)
                    }
                }
            }
        }
        try VisionError.check(status)
        return PoseEstimate(result, inliers: inliers)
    }

    private static func cExclusion(_ e: Exclusion) -> vc_pose_exclusion {
        var c = vc_pose_exclusion()
        let r = e.pose.rotation.rowMajor
        _ = withUnsafeMutableBytes(of: &c.R_cw) { $0.bindMemory(to: Double.self).update(fromContentsOf: r) }
        c.t_cw = (e.pose.translation.x, e.pose.translation.y, e.pose.translation.z)
        c.max_rotation_deg = e.maxRotationDegrees
        c.max_centre_distance = e.maxCentreDistance
        return c
    }

    /// Levenberg–Marquardt refinement of `start` on all correspondences (no outlier
    /// rejection beyond the loss). Returns the refined pose and its RMS reprojection error.
    public static func refine(_ start: CameraFromWorld, pixels: [SIMD2<Double>], worldPoints: [SIMD3<Double>],
                              camera: CameraIntrinsics, loss: RobustLoss = .cauchy(scale: 2),
                              maxIterations: Int = 30) throws(VisionError) -> (pose: CameraFromWorld, rmsError: Double) {
        guard pixels.count == worldPoints.count else {
            throw VisionError(.invalidArgument, "\(pixels.count) pixels for \(worldPoints.count) world points")
        }
        let packed = packXYZ(worldPoints)
        var cam = vc_pinhole(fx: camera.fx, fy: camera.fy, cx: camera.cx, cy: camera.cy)
        var opts = vc_refine_options(max_iterations: Int32(clamping: maxIterations), loss: loss.cKind,
                                     loss_scale_px: loss.scale)
        var r = start.rotation.rowMajor
        var t = [start.translation.x, start.translation.y, start.translation.z]
        var rms = 0.0
        let status = pixels.withUnsafeBufferPointer { p2 in
            p2.withMemoryRebound(to: Double.self) { p in
                packed.withUnsafeBufferPointer { p3 in
                    vc_pose_refine(&cam, p.baseAddress, p3.baseAddress, Int32(pixels.count), &opts, &r, &t, &rms, nil)
                }
            }
        }
        try VisionError.check(status)
        return (CameraFromWorld(rotation: Matrix3(rowMajor: r), translation: SIMD3(t[0], t[1], t[2])), rms)
    }

    /// The minimal P3P solver alone: up to four world → camera poses from three camera rays
    /// (any length) and their world points. Empty for degenerate input.
    public static func p3p(bearings: [SIMD3<Double>], worldPoints: [SIMD3<Double>]) throws(VisionError) -> [CameraFromWorld] {
        guard bearings.count == 3, worldPoints.count == 3 else {
            throw VisionError(.invalidArgument, "P3P needs exactly 3 bearings and 3 world points")
        }
        let b = packXYZ(bearings), x = packXYZ(worldPoints)
        var r = [Double](repeating: 0, count: 36), t = [Double](repeating: 0, count: 12)
        var count: Int32 = 0
        try VisionError.check(vc_pose_p3p(b, x, &r, &t, &count))
        return poses(rowMajorRotations: r, translations: t, count: count)
    }

    /// The first `count` poses of a minimal solver's output buffers.
    static func poses(rowMajorRotations r: [Double], translations t: [Double], count: Int32) -> [CameraFromWorld] {
        (0 ..< Int(count)).map { i in
            CameraFromWorld(rotation: Matrix3(rowMajor: Array(r[9 * i ..< 9 * i + 9])),
                            translation: SIMD3(t[3 * i], t[3 * i + 1], t[3 * i + 2]))
        }
    }
}

extension AbsolutePoseEstimator {
    /// The minimal upright P2P solver alone: up to two world → camera poses from two camera
    /// rays (any length), their world points and the camera's gravity (world (0, −1, 0) in
    /// camera coordinates). Empty for degenerate input.
    public static func p2pUpright(bearings: [SIMD3<Double>], worldPoints: [SIMD3<Double>],
                                  gravity: SIMD3<Double>) throws(VisionError) -> [CameraFromWorld] {
        guard bearings.count == 2, worldPoints.count == 2 else {
            throw VisionError(.invalidArgument, "upright P2P needs exactly 2 bearings and 2 world points")
        }
        let b = packXYZ(bearings), x = packXYZ(worldPoints), g = [gravity.x, gravity.y, gravity.z]
        var r = [Double](repeating: 0, count: 18), t = [Double](repeating: 0, count: 6)
        var count: Int32 = 0
        try VisionError.check(vc_pose_p2p_upright(b, x, g, &r, &t, &count))
        return poses(rowMajorRotations: r, translations: t, count: count)
    }
}

extension PoseEstimate {
    package init(_ r: vc_pose_result, inliers: [Bool]) {
        let cw = withUnsafeBytes(of: r.R_cw) { Array($0.bindMemory(to: Double.self)) }
        let t = withUnsafeBytes(of: r.t_cw) { Array($0.bindMemory(to: Double.self)) }
        let cfw = CameraFromWorld(rotation: Matrix3(rowMajor: cw), translation: SIMD3(t[0], t[1], t[2]))
        self.init(pose: cfw.pose, cameraFromWorld: cfw, inliers: inliers, inlierCount: Int(r.num_inliers),
                  iterations: Int(r.iterations), refinements: Int(r.refinements), rmsError: r.rms_px)
    }
}

/// Runs a C pose solver over `pixels` and returns its inlier mask: `solve` gets a mask of
/// `pixels.count` bytes (cleared) to fill and the pixels as x,y doubles.
package func solveWithInlierMask(pixels: [SIMD2<Double>],
                                 _ solve: (_ mask: UnsafeMutablePointer<UInt8>?, _ xy: UnsafePointer<Double>?) -> Void)
    -> [Bool] {
    let n = pixels.count
    return [Bool](unsafeUninitializedCapacity: n) { mask, initialized in
        mask.initialize(repeating: false)
        initialized = n
        mask.withMemoryRebound(to: UInt8.self) { m in
            pixels.withUnsafeBufferPointer { xy in
                xy.withMemoryRebound(to: Double.self) { p in solve(m.baseAddress, p.baseAddress) }
            }
        }
    }
}

/// Packs 3-vectors as x,y,z doubles (Swift pads SIMD3<Double> to four).
package func packXYZ(_ v: [SIMD3<Double>]) -> [Double] {
    [Double](unsafeUninitializedCapacity: v.count * 3) { buf, n in
        for (i, p) in v.enumerated() {
            buf[3 * i] = p.x; buf[3 * i + 1] = p.y; buf[3 * i + 2] = p.z
        }
        n = v.count * 3
    }
}
