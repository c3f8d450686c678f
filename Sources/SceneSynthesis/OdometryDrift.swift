import Foundation
import Geometry

/// Device odometry like a phone's visual-inertial tracking: the ground truth expressed in
/// a local frame of arbitrary origin and heading (gravity-aligned, +y up) that drifts as
/// the device moves — random-walk yaw and position errors plus a small scale error, a
/// few centimetres per metre in all. Produces `T_local_camera` per frame.
public struct OdometryDrift: Sendable {
    /// Position random walk, metres per √metre travelled.
    public var positionNoise = 0.012
    /// Yaw random walk, radians per √metre travelled.
    public var yawNoise = 0.2 * Double.pi / 180
    /// Yaw random walk per √second, so turning in place drifts too.
    public var yawNoisePerSecond = 0.05 * Double.pi / 180
    /// Standard deviation of the scale error (fraction).
    public var scaleError = 0.01
    /// Standard deviation of the yaw bias, radians per metre.
    public var yawBias = 0.05 * Double.pi / 180

    public init() {}

    /// Odometry poses for ground-truth frames `(timestamp, T_map_camera)` in time order.
    public func odometry(for frames: [(time: Double, pose: Pose)], seed: UInt64) -> [Pose] {
        var rng = SeededRandom(seed: seed, stream: "odometry")
        // Arbitrary local frame: random heading and origin, like a tracking session that
        // started somewhere else.
        let yaw0 = rng.uniform(-Double.pi...Double.pi)
        let origin = SIMD3(rng.uniform(-5...5), rng.uniform(-0.5...0.5), rng.uniform(-5...5))
        let scale = 1 + scaleError * rng.gaussian()
        let bias = yawBias * rng.gaussian()
        var psi = 0.0
        var out: [Pose] = []
        var position = SIMD3<Double>.zero
        for (k, f) in frames.enumerated() {
            if k == 0 {
                position = Quaternion(axis: SIMD3(0, 1, 0), angle: yaw0).rotate(f.pose.translation) + origin
            } else {
                let delta = f.pose.translation - frames[k - 1].pose.translation
                let d = length(delta)
                let dt = max(0, f.time - frames[k - 1].time)
                psi += yawNoise * d.squareRoot() * rng.gaussian() + bias * d
                    + yawNoisePerSecond * dt.squareRoot() * rng.gaussian()
                let q = Quaternion(axis: SIMD3(0, 1, 0), angle: yaw0 + psi)
                let noise = SIMD3(rng.gaussian(), 0.3 * rng.gaussian(), rng.gaussian()) * positionNoise * d.squareRoot()
                position += q.rotate(delta) * scale + noise
            }
            let q = Quaternion(axis: SIMD3(0, 1, 0), angle: yaw0 + psi)
            out.append(Pose(rotation: (q * f.pose.rotation).normalized, translation: position))
        }
        return out
    }
}
