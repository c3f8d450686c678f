import Foundation
import Geometry

/// Chooses the keyframe pairs worth matching, from the known poses alone.
///
/// Two keyframes are covisible when their view frustums overlap: a grid of pixels of
/// one image, pushed out to a few depths of the expected scene range, mostly lands inside
/// the other image in front of it (and vice versa). Pairs also need a baseline long enough
/// to triangulate. Each keyframe keeps its best partners, scored by overlap and baseline.
struct CovisibilityPlanner: Sendable {
    var depthRange: ClosedRange<Double>
    var minBaseline: Double
    var maxViewAngleDegrees: Double
    var minOverlap: Double
    var partnersPerKeyframe: Int

    struct Pair: Sendable, Hashable {
        var a: Int
        var b: Int
        var overlap: Double
        var baseline: Double
    }

    func pairs(poses: [Pose], intrinsics: [CameraIntrinsics]) -> [Pair] {
        let n = poses.count
        let samples = (0..<n).map { samplePoints(pose: poses[$0], k: intrinsics[$0]) }
        let inverse = poses.map(\.inverse)
        let axes = poses.map { $0.rotation.rotate(SIMD3(0, 0, 1)) }
        let cosMax = cos(maxViewAngleDegrees * .pi / 180)
        var best = [[Pair]](repeating: [], count: n)
        for i in 0..<n {
            for j in (i + 1)..<max(i + 1, n) {
                let baseline = length(poses[i].center - poses[j].center)
                guard baseline >= minBaseline, dot(axes[i], axes[j]) >= cosMax else { continue }
                let o = 0.5 * (visibleFraction(samples[i], inverse[j], intrinsics[j])
                               + visibleFraction(samples[j], inverse[i], intrinsics[i]))
                guard o >= minOverlap else { continue }
                let p = Pair(a: i, b: j, overlap: o, baseline: baseline)
                best[i].append(p)
                best[j].append(p)
            }
        }
        var chosen = Set<Pair>()
        for i in 0..<n {
            // Overlap matters most; baseline breaks ties towards better triangulation.
            let ranked = best[i].sorted { score($0) > score($1) }
            for p in ranked.prefix(partnersPerKeyframe) { chosen.insert(p) }
        }
        return chosen.sorted { ($0.a, $0.b) < ($1.a, $1.b) }
    }

    private func score(_ p: Pair) -> Double {
        p.overlap * min(1, p.baseline / max(minBaseline * 4, 1e-9))
    }

    /// A 5×5 pixel grid at three depths (near, geometric middle, far), in the map frame.
    private func samplePoints(pose: Pose, k: CameraIntrinsics) -> [SIMD3<Double>] {
        let near = depthRange.lowerBound, far = depthRange.upperBound
        let depths = [near, (near * far).squareRoot(), far]
        var out: [SIMD3<Double>] = []
        for gy in 0..<5 {
            for gx in 0..<5 {
                let px = SIMD2((Double(gx) + 0.5) / 5 * Double(k.width), (Double(gy) + 0.5) / 5 * Double(k.height))
                let ray = k.ray(px)
                for d in depths { out.append(pose.apply(ray * d)) }
            }
        }
        return out
    }

    private func visibleFraction(_ points: [SIMD3<Double>], _ cameraFromMap: Pose, _ k: CameraIntrinsics) -> Double {
        var seen = 0
        for p in points {
            if let px = k.project(cameraFromMap.apply(p)), k.contains(px) { seen += 1 }
        }
        return Double(seen) / Double(points.count)
    }
}
