import Geometry
import Support

/// A synthetic 2D–3D correspondence set seen by a random camera, as `bench pose` solves
/// it: inliers are the projections of points 2–10 m in front of the camera with 1 px
/// Gaussian pixel noise, outliers pixels drawn uniformly over the image; shuffled, so
/// outliers are not grouped.
public struct CorrespondenceSet: Sendable {
    /// The true pose, T_map_camera; translations in metres.
    public var truth: Pose
    /// Image points in pixels, one per world point.
    public var pixels: [SIMD2<Double>] = []
    /// Map points in metres.
    public var world: [SIMD3<Double>] = []

    /// `n` correspondences of which `outlierRatio` (rounded to a count) are outliers, drawn
    /// from `rng`: the same generator state always gives the same set.
    public init(n: Int, outlierRatio: Double, camera: CameraIntrinsics, rng: inout SplitMix64) {
        let q = Quaternion(x: rng.gaussian(), y: rng.gaussian(), z: rng.gaussian(), w: rng.gaussian()).normalized
        let centre = SIMD3(Double.random(in: -5 ... 5, using: &rng), Double.random(in: -5 ... 5, using: &rng),
                           Double.random(in: -5 ... 5, using: &rng))
        truth = Pose(rotation: q, translation: centre)  // T_map_camera
        let outliers = Int((Double(n) * outlierRatio).rounded())
        for i in 0 ..< n {
            let u = Double.random(in: 0 ..< Double(camera.width), using: &rng)
            let v = Double.random(in: 0 ..< Double(camera.height), using: &rng)
            let depth = Double.random(in: 2 ... 10, using: &rng)
            world.append(truth.apply(camera.ray(SIMD2(u, v)) * depth))
            if i % n < outliers {
                pixels.append(SIMD2(Double.random(in: 0 ..< Double(camera.width), using: &rng),
                                    Double.random(in: 0 ..< Double(camera.height), using: &rng)))
            } else {
                pixels.append(SIMD2(u + rng.gaussian(), v + rng.gaussian()))
            }
        }
        // Shuffle so outliers are not grouped.
        var order = Array(0 ..< n)
        order.shuffle(using: &rng)
        pixels = order.map { pixels[$0] }
        world = order.map { world[$0] }
    }
}
