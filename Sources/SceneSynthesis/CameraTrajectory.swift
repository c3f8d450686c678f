import Foundation
import Geometry

/// A continuous hand-held camera path: dense samples of time, position and viewing angles,
/// interpolated linearly in between. Yaw is the heading of the optical axis in the floor
/// plane (0 = +x, π/2 = +z); pitch > 0 looks up; roll turns the image clockwise.
public struct CameraTrajectory: Sendable {
    public struct Sample: Sendable, Hashable {
        public var time: Double
        public var position: SIMD3<Double>
        public var yaw: Double
        public var pitch: Double
        public var roll: Double
    }

    /// Samples in increasing time; yaw is unwrapped (continuous, not reduced mod 2π).
    public private(set) var samples: [Sample]

    public init(samples: [Sample]) {
        precondition(samples.count >= 2, "a trajectory needs at least two samples")
        self.samples = samples
    }

    public var duration: Double { samples.last!.time - samples.first!.time }

    /// Path length in metres.
    public var length: Double {
        zip(samples, samples.dropFirst()).reduce(0) { $0 + Geometry.length($1.1.position - $1.0.position) }
    }

    /// The interpolated sample at time `t` (clamped to the trajectory).
    public func sample(at t: Double) -> Sample {
        let first = samples.first!, last = samples.last!
        if t <= first.time { return first }
        if t >= last.time { return last }
        var lo = 0, hi = samples.count - 1
        while hi - lo > 1 {
            let mid = (lo + hi) / 2
            if samples[mid].time <= t { lo = mid } else { hi = mid }
        }
        let a = samples[lo], b = samples[hi]
        let f = (t - a.time) / max(1e-12, b.time - a.time)
        return Sample(time: t, position: a.position + (b.position - a.position) * f,
                      yaw: a.yaw + (b.yaw - a.yaw) * f, pitch: a.pitch + (b.pitch - a.pitch) * f,
                      roll: a.roll + (b.roll - a.roll) * f)
    }

    /// Ground-truth `T_map_camera` at time `t`.
    public func pose(at t: Double) -> Pose { Self.pose(sample(at: t)) }

    /// The camera pose of a sample: optical axis along (yaw, pitch), image up = map up, then roll.
    public static func pose(_ s: Sample) -> Pose {
        let dir = SIMD3(cos(s.pitch) * cos(s.yaw), sin(s.pitch), cos(s.pitch) * sin(s.yaw))
        let look = Pose.lookAt(eye: s.position, target: s.position + dir)
        let roll = Pose(rotation: Quaternion(axis: SIMD3(0, 0, 1), angle: s.roll), translation: .zero)
        return look * roll
    }

    /// `count` frame times spread evenly over the trajectory, starting at its beginning.
    public func frameTimes(count: Int) -> [Double] {
        guard count > 1 else { return [samples.first!.time] }
        let t0 = samples.first!.time, d = duration
        return (0..<count).map { t0 + d * Double($0) / Double(count - 1) }
    }
}
