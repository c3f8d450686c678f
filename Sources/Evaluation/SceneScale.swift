import Geometry
import Support

/// The size of a scene seen by a set of cameras, in the cameras' own units: the median
/// distance of the camera centres from the point nearest (least squares) to all their
/// optical axes — the scale `../shared/real/README.md` scores real photos against.
public enum SceneScale {
    /// The scale of the scene seen by `cameras` (`T_map_camera`), or nil when their optical
    /// axes are (nearly) parallel and no such point exists.
    public static func of(_ cameras: [Pose]) -> Double? {
        of(cameras: { body in cameras.forEach(body) })
    }

    /// The same for cameras handed out by `cameras` (which calls its argument with each, the
    /// same ones each time it is called: a session's ground truth read as a stream): read
    /// twice, held never; the median distance comes from a `SpilledSort`.
    public static func of(cameras: ((Pose) -> Void) throws -> Void) rethrows -> Double? {
        var axes = NearestPointToAxes()
        try cameras { axes.add($0) }
        guard let target = axes.point else { return nil }
        let distances = SpilledSort()
        try cameras { distances.append(length($0.center - target)) }
        return distances.percentiles([50])?.values[0]
    }

    /// The point minimising the summed squared distance to every camera's optical axis.
    public static func pointNearestToAxes(of cameras: [Pose]) -> SIMD3<Double>? {
        var axes = NearestPointToAxes()
        cameras.forEach { axes.add($0) }
        return axes.point
    }

    /// The normal equations of that point, summed a camera at a time.
    private struct NearestPointToAxes {
        // Σ (I − d dᵀ) p = Σ (I − d dᵀ) c
        var a = [Double](repeating: 0, count: 9)
        var b = SIMD3<Double>.zero
        var count = 0

        mutating func add(_ pose: Pose) {
            let d = normalize(pose.rotation.rotate(SIMD3(0, 0, 1)))
            let c = pose.center
            var projected = SIMD3<Double>.zero
            for r in 0..<3 {
                for k in 0..<3 {
                    let m = (r == k ? 1.0 : 0.0) - d[r] * d[k]
                    a[3 * r + k] += m
                    projected[r] += m * c[k]
                }
            }
            b += projected
            count += 1
        }

        var point: SIMD3<Double>? {
            let m = Matrix3(rowMajor: a)
            let det = m.determinant
            guard count >= 2, abs(det) > 1e-9 * Double(count * count * count) else { return nil }
            // Cramer's rule.
            func replaced(_ column: Int) -> Matrix3 {
                var v = a
                for r in 0..<3 { v[3 * r + column] = b[r] }
                return Matrix3(rowMajor: v)
            }
            return SIMD3(replaced(0).determinant / det, replaced(1).determinant / det, replaced(2).determinant / det)
        }
    }
}
