public import Geometry
import VisionCore

/// A calibrated view for triangulation: where the camera is and how it projects
/// (undistorted pixels; only `fx fy cx cy` of the intrinsics are used).
public struct CameraView: Sendable, Hashable {
    /// `T_map_camera` of the view.
    public var pose: Pose
    public var intrinsics: CameraIntrinsics

    public init(pose: Pose, intrinsics: CameraIntrinsics) {
        self.pose = pose; self.intrinsics = intrinsics
    }

    var cView: vc_view {
        let cfw = CameraFromWorld(pose)
        var v = vc_view()
        withUnsafeMutableBytes(of: &v.R_cw) { raw in
            let d = raw.bindMemory(to: Double.self)
            for (i, x) in cfw.rotation.rowMajor.enumerated() { d[i] = x }
        }
        v.t_cw = (cfw.translation.x, cfw.translation.y, cfw.translation.z)
        v.camera = vc_pinhole(fx: intrinsics.fx, fy: intrinsics.fy, cx: intrinsics.cx, cy: intrinsics.cy)
        return v
    }
}

/// A triangulated world point and how trustworthy it is.
public struct TriangulatedPoint: Sendable, Hashable {
    public enum Status: Sendable, Hashable {
        /// Passed every check.
        case ok
        /// Rays (nearly) parallel, point at infinity, or numerical failure.
        case degenerate
        /// Behind at least one camera.
        case behindCamera
        /// The largest angle between viewing rays is below the minimum.
        case lowParallax
        /// Some view's reprojection error is above the maximum.
        case highError
    }
    public var position: SIMD3<Double>
    public var status: Status
    /// Largest angle between the viewing rays, degrees.
    public var parallaxDegrees: Double
    public var maxError: Double
    public var meanError: Double
    /// Reprojection error in each view, pixels (empty from `triangulatePairs`).
    public var errors: [Double]

    public var isValid: Bool { status == .ok }
}

/// Two- and multi-view triangulation: linear DLT, Gauss–Newton on pixel error, then
/// cheirality, parallax and reprojection checks.
public struct Triangulator: Sendable, Hashable {
    public var minParallaxDegrees: Double
    public var maxError: Double
    /// Gauss–Newton refinement after the DLT.
    public var refine: Bool

    public init(minParallaxDegrees: Double = 1, maxError: Double = 4, refine: Bool = true) {
        self.minParallaxDegrees = minParallaxDegrees; self.maxError = maxError; self.refine = refine
    }

    private var cOptions: vc_triangulation_options {
        vc_triangulation_options(min_parallax_deg: minParallaxDegrees, max_error_px: maxError, refine: refine ? 1 : 0)
    }

    /// One point observed at `pixels[i]` in `views[i]` (two or more views).
    public func triangulate(views: [CameraView], pixels: [SIMD2<Double>]) throws(VisionError) -> TriangulatedPoint {
        guard views.count == pixels.count, views.count >= 2 else {
            throw VisionError(.invalidArgument, "need the same number (≥ 2) of views and pixels")
        }
        let cv = views.map(\.cView)
        var opts = cOptions
        var out = vc_triangulated_point()
        var errors = [Double](repeating: 0, count: views.count)
        let status = pixels.withUnsafeBufferPointer { p in
            p.withMemoryRebound(to: Double.self) { px in
                vc_triangulate(cv, px.baseAddress, Int32(views.count), &opts, &out, &errors)
            }
        }
        try VisionError.check(status)
        return TriangulatedPoint(out, errors: errors)
    }

    /// Many points seen in two views: `pixelsA[i]` in `a` and `pixelsB[i]` in `b`.
    public func triangulatePairs(_ a: CameraView, _ b: CameraView, pixelsA: [SIMD2<Double>],
                                 pixelsB: [SIMD2<Double>]) throws(VisionError) -> [TriangulatedPoint] {
        guard pixelsA.count == pixelsB.count else {
            throw VisionError(.invalidArgument, "\(pixelsA.count) pixels in A but \(pixelsB.count) in B")
        }
        var va = a.cView, vb = b.cView
        var opts = cOptions
        let n = pixelsA.count
        var raw = [vc_triangulated_point](repeating: vc_triangulated_point(), count: n)
        let status = pixelsA.withUnsafeBufferPointer { pa in
            pixelsB.withUnsafeBufferPointer { pb in
                pa.withMemoryRebound(to: Double.self) { a2 in
                    pb.withMemoryRebound(to: Double.self) { b2 in
                        raw.withUnsafeMutableBufferPointer { out in
                            vc_triangulate_pairs(&va, &vb, a2.baseAddress, b2.baseAddress, Int32(n), &opts, out.baseAddress)
                        }
                    }
                }
            }
        }
        try VisionError.check(status)
        return raw.map { TriangulatedPoint($0, errors: []) }
    }
}

extension TriangulatedPoint {
    init(_ p: vc_triangulated_point, errors: [Double]) {
        let s: Status
        switch p.status {
        case Int32(VC_TRI_OK.rawValue): s = .ok
        case Int32(VC_TRI_BEHIND_CAMERA.rawValue): s = .behindCamera
        case Int32(VC_TRI_LOW_PARALLAX.rawValue): s = .lowParallax
        case Int32(VC_TRI_HIGH_ERROR.rawValue): s = .highError
        default: s = .degenerate
        }
        self.init(position: SIMD3(p.X.0, p.X.1, p.X.2), status: s, parallaxDegrees: p.parallax_deg,
                  maxError: p.max_error_px, meanError: p.mean_error_px, errors: errors)
    }
}
