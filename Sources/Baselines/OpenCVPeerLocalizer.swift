import Geometry
import BaselineCore
import Support
import Vision
import VisionCore

/// The OpenCV-only localization pipeline `arcloud bench localize` measures against:
/// brute-force k-NN matching (`cv::BFMatcher`) against every map descriptor + ratio test +
/// `cv::solvePnPRansac` (AP3P) + `cv::solvePnPRefineLM`, on features from `ORBExtractor`
/// (the map's descriptors come from it; `cv::ORB`'s sampling pattern differs).
///
/// Sendable: the C++ object sits behind a `Locked` (Locking module); make one per thread for
/// parallel use.
public final class OpenCVPeerLocalizer: Sendable {
    /// What one peer localization found.
    public struct Result: Sendable, Hashable {
        /// `T_map_camera` when accepted.
        public var pose: Pose?
        public var matches: Int
        public var inliers: Int
        public var matchMilliseconds: Double
        public var solveMilliseconds: Double
    }

    private struct Handle: ~Copyable { let pointer: OpaquePointer }
    private let handle: Locked<Handle>

    /// Copies `descriptors` (32 bytes per point) and `positions` (x,y,z per point) into the peer.
    public init(descriptors: [UInt8], positions: [Double], ratio: Double = 0.8,
                threshold: Double = 4, confidence: Double = 0.999, maxIterations: Int = 1000,
                minInliers: Int = 30) throws(VisionError) {
        let n = positions.count / 3
        guard n > 0, descriptors.count == 32 * n else {
            throw VisionError(.invalidArgument, "\(descriptors.count) descriptor bytes for \(n) points")
        }
        let params = vc_peer_params(ratio: ratio,
                                    ransac_threshold_px: threshold, confidence: confidence,
                                    max_iterations: Int32(clamping: maxIterations), min_inliers: Int32(clamping: minInliers))
        let p = descriptors.withUnsafeBufferPointer { d in
            positions.withUnsafeBufferPointer { x in vc_peer_create(d.baseAddress, x.baseAddress, Int32(n), params) }
        }
        guard let p else { throw VisionError(.outOfMemory, "could not create the OpenCV peer") }
        handle = Locked(Handle(pointer: p))
    }

    deinit { handle.withLock { vc_peer_destroy($0.pointer) } }

    /// Localizes undistorted query features.
    public func localize(_ features: FeatureSet, camera: CameraIntrinsics) throws(VisionError) -> Result {
        var out = vc_peer_result()
        let k = [camera.fx, camera.fy, camera.cx, camera.cy]
        var xy = [Float](repeating: 0, count: 2 * features.count)
        for (i, p) in features.keypoints.enumerated() { xy[2 * i] = p.x; xy[2 * i + 1] = p.y }
        let status = handle.withLock { h in
            xy.withUnsafeBufferPointer { kp in
                features.descriptors.withUnsafeBufferPointer { d in
                    vc_peer_localize(h.pointer, kp.baseAddress, d.baseAddress, Int32(features.count), k, &out)
                }
            }
        }
        try VisionError.check(status)
        return Result(out)
    }
}

extension OpenCVPeerLocalizer.Result {
    /// The result a VisionCore peer wrote.
    init(_ out: vc_peer_result) {
        var pose: Pose?
        if out.localized != 0 {
            let r = withUnsafeBytes(of: out.R_cw) { Array($0.bindMemory(to: Double.self)) }
            let t = withUnsafeBytes(of: out.t_cw) { Array($0.bindMemory(to: Double.self)) }
            pose = CameraFromWorld(rotation: Matrix3(rowMajor: r), translation: SIMD3(t[0], t[1], t[2])).pose
        }
        self.init(pose: pose, matches: Int(out.matches), inliers: Int(out.inliers), matchMilliseconds: out.match_ms,
                  solveMilliseconds: out.solve_ms)
    }
}
