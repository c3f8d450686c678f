import Geometry

/// Projection of map points into keyframes, with the keyframe's lens distortion, so
/// results compare directly with stored (distorted) observation pixels.
public enum MapGeometry {
    /// The pixel where `point` (map frame) appears in a camera at `pose` (`T_map_camera`)
    /// with `intrinsics` (OpenCV distortion model applied); nil behind the camera.
    public static func project(_ point: SIMD3<Double>, pose: Pose, intrinsics k: CameraIntrinsics) -> SIMD2<Double>? {
        let c = pose.inverse.apply(point)
        guard c.z > 1e-9 else { return nil }
        return distortedPixel(normalized: SIMD2(c.x / c.z, c.y / c.z), intrinsics: k)
    }

    /// Applies `k`'s distortion (`k1 k2 p1 p2 [k3]`) to a normalised image point and maps it to pixels.
    public static func distortedPixel(normalized n: SIMD2<Double>, intrinsics k: CameraIntrinsics) -> SIMD2<Double> {
        var x = n.x, y = n.y
        let d = k.distortion
        if d.count >= 4 {
            let r2 = x * x + y * y
            let k3 = d.count >= 5 ? d[4] : 0
            let radial = 1 + d[0] * r2 + d[1] * r2 * r2 + k3 * r2 * r2 * r2
            let xd = x * radial + 2 * d[2] * x * y + d[3] * (r2 + 2 * x * x)
            let yd = y * radial + d[2] * (r2 + 2 * y * y) + 2 * d[3] * x * y
            x = xd; y = yd
        }
        return SIMD2(k.fx * x + k.cx, k.fy * y + k.cy)
    }

    /// Reprojection error in pixels of every observation of the map, in observation order.
    public static func reprojectionErrors(of map: VPSMap) -> [Double] {
        map.observations.map { o in
            let kf = map.keyframes[Int(o.keyframe)]
            guard let px = project(map.points.position(Int(o.point)), pose: kf.pose, intrinsics: kf.intrinsics) else {
                return .infinity
            }
            let d = px - SIMD2(Double(o.pixel.x), Double(o.pixel.y))
            return (d * d).sum().squareRoot()
        }
    }
}
