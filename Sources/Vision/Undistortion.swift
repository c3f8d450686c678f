public import Geometry
import VisionCore

extension CameraIntrinsics {
    /// The pixels an ideal pinhole camera with the same `fx fy cx cy` would see for the
    /// given (distorted) pixels. Without distortion coefficients this returns the input.
    public func undistort(_ pixels: [SIMD2<Double>]) throws(VisionError) -> [SIMD2<Double>] {
        if distortion.allSatisfy({ $0 == 0 }) { return pixels }
        var intr = vc_intrinsics()
        intr.fx = fx; intr.fy = fy; intr.cx = cx; intr.cy = cy
        intr.n_distortion = Int32(distortion.count)
        withUnsafeMutableBytes(of: &intr.distortion) { raw in
            let d = raw.bindMemory(to: Double.self)
            for (i, v) in distortion.prefix(5).enumerated() { d[i] = v }
        }
        var out = pixels
        var status = VC_OK
        pixels.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                src.withMemoryRebound(to: Double.self) { s in
                    dst.withMemoryRebound(to: Double.self) { d in
                        status = vc_undistort_points(&intr, s.baseAddress, d.baseAddress, Int32(pixels.count))
                    }
                }
            }
        }
        try VisionError.check(status)
        return out
    }

    /// Keypoints with undistorted positions (other fields unchanged).
    public func undistort(_ keypoints: [Keypoint]) throws(VisionError) -> [Keypoint] {
        let moved = try undistort(keypoints.map(\.position))
        return zip(keypoints, moved).map { k, p in
            var k = k
            k.x = Float(p.x); k.y = Float(p.y)
            return k
        }
    }
}
