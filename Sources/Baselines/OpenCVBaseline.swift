public import Geometry
import BaselineCore
import Support
import Vision
import VisionCore

/// OpenCV reference pipelines, for benchmarks and cross-checks only: what an OpenCV user
/// would write for the same jobs.
public enum OpenCVBaseline {
    /// `cv::solvePnPRansac(SOLVEPNP_AP3P)` with the same threshold and confidence, then
    /// `cv::solvePnPRefineLM` on its inliers. Inliers and RMS are recomputed for the final
    /// pose exactly as `AbsolutePoseEstimator` reports them; `iterations` stays 0.
    public static func solvePnPRansac(pixels: [SIMD2<Double>], worldPoints: [SIMD3<Double>],
                                      camera: CameraIntrinsics, threshold: Double, confidence: Double,
                                      maxIterations: Int, refine: Bool = true) throws(VisionError) -> PoseEstimate {
        guard pixels.count == worldPoints.count else {
            throw VisionError(.invalidArgument, "\(pixels.count) pixels for \(worldPoints.count) world points")
        }
        let n = pixels.count
        let packed = packXYZ(worldPoints)
        var cam = vc_pinhole(fx: camera.fx, fy: camera.fy, cx: camera.cx, cy: camera.cy)
        var opts = vc_baseline_pnp_options(threshold_px: threshold, confidence: confidence,
                                           max_iterations: Int32(clamping: maxIterations), refine: refine ? 1 : 0)
        var result = vc_pose_result()
        var status = VC_OK
        let inliers = solveWithInlierMask(pixels: pixels) { m, p in
            status = vc_baseline_pnp_ransac(&cam, p, packed, Int32(n), &opts, &result, m)
        }
        try VisionError.check(status)
        return PoseEstimate(result, inliers: inliers)
    }

    /// Raw `cv::ORB::create(featureCount)`, created once and run per frame.
    /// Sendable: the OpenCV object sits behind a `Locked` (Locking module); calls run one at
    /// a time.
    public final class ORB: Sendable {
        private struct Handle: ~Copyable { let pointer: OpaquePointer }
        private let handle: Locked<Handle>

        public init(featureCount: Int) throws(VisionError) {
            var h: OpaquePointer?
            try VisionError.check(vc_baseline_orb_create(Int32(clamping: featureCount), &h))
            guard let h else { throw VisionError(.internalError, "no ORB object") }
            handle = Locked(Handle(pointer: h))
        }

        deinit { handle.withLock { vc_baseline_orb_destroy($0.pointer) } }

        /// `detectAndCompute` on `image`; returns the keypoint positions.
        public func detectAndCompute(_ image: GrayImage) throws(VisionError) -> [SIMD2<Float>] {
            var count: Int32 = 0
            var xy = [SIMD2<Float>](repeating: .zero, count: 100_000)
            let status = handle.withLock { h in
                image.pixels.withUnsafeBufferPointer { px in
                    xy.withUnsafeMutableBufferPointer { out in
                        out.withMemoryRebound(to: Float.self) { f in
                            vc_baseline_orb_detect(h.pointer, px.baseAddress, Int32(image.width), Int32(image.height),
                                                   Int32(image.width), f.baseAddress, Int32(out.count), &count)
                        }
                    }
                }
            }
            try VisionError.check(status)
            return Array(xy.prefix(min(Int(count), xy.count)))
        }
    }
}
