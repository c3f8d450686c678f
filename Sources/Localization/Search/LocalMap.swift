import Foundation
import Geometry

/// The part of the map a camera near a pose can see, for guided matching (ORB-SLAM's
/// local map): the points observed by the keyframes that observe the pose's inliers, and
/// by the keyframes taken near the pose looking the same way.
///
/// Projecting these instead of every map point costs a fraction of the time, and leaves
/// out points that would project into the image from behind walls (the projection knows
/// no occlusion), which are look-alikes for guided matching.
struct LocalMap: Sendable {
    /// Keyframes voted for by the most inliers, at most this many.
    var maxVotedKeyframes = 10
    /// Keyframes whose camera lies within this distance of the pose (in map units: the
    /// localizer sets it from the map's scale; 2.5 m on the gallery map)…
    var nearbyRadius: Double
    /// …and whose optical axis is within this angle (degrees) of the pose's.
    var nearbyMaxAxisAngle = 60.0

    /// Point → keyframes observing it (CSR).
    private let keyframeOffsets: [Int32]
    private let keyframesOfPoint: [Int32]
    private let centres: [SIMD3<Double>]
    private let axes: [SIMD3<Double>]
    private let pointCount: Int

    init(map: VPSMap, nearbyRadius: Double) {
        self.nearbyRadius = nearbyRadius
        pointCount = map.points.count
        let grouped = GroupedByKey(keys: map.observations.map { Int($0.point) },
                                   values: map.observations.map { Int32($0.keyframe) }, keyCount: pointCount)
        keyframeOffsets = grouped.offsets
        keyframesOfPoint = grouped.values
        centres = map.keyframes.map(\.pose.center)
        axes = map.keyframes.map { $0.pose.rotation.rotate(SIMD3(0, 0, 1)) }
    }

    /// The keyframes of the local map around `pose` (`T_map_camera`) with inliers on `inlierPoints`.
    func keyframes(around pose: Pose, inlierPoints: some Sequence<Int>) -> [Int] {
        var votes = [Int32](repeating: 0, count: centres.count)
        for p in inlierPoints where p >= 0 && p < pointCount {
            for j in Int(keyframeOffsets[p])..<Int(keyframeOffsets[p + 1]) { votes[Int(keyframesOfPoint[j])] += 1 }
        }
        var chosen = Array(votes.indices.filter { votes[$0] > 0 }
            .sorted { (votes[$0], $1) > (votes[$1], $0) }.prefix(maxVotedKeyframes))
        let centre = pose.center, axis = pose.rotation.rotate(SIMD3(0, 0, 1))
        let minCos = cos(nearbyMaxAxisAngle * .pi / 180)
        for k in centres.indices where !chosen.contains(k) {
            let d = centres[k] - centre
            if (d * d).sum() <= nearbyRadius * nearbyRadius, (axes[k] * axis).sum() >= minCos { chosen.append(k) }
        }
        return chosen
    }

    /// Votes per keyframe: each of `points` gives one vote, shared among the keyframes that
    /// observe it.
    func keyframeVotes(for points: some Sequence<Int>) -> [Float] {
        var votes = [Float](repeating: 0, count: centres.count)
        for p in points where p >= 0 && p < pointCount {
            let a = Int(keyframeOffsets[p]), b = Int(keyframeOffsets[p + 1])
            guard b > a else { continue }
            let share = 1 / Float(b - a)
            for j in a..<b { votes[Int(keyframesOfPoint[j])] += share }
        }
        return votes
    }

    /// The points observed by `keyframes`, each once, keyframe by keyframe.
    func points(observedBy keyframes: [Int], in map: VPSMap) -> [Int32] {
        var observed: [Int32] = []
        observed.reserveCapacity(keyframes.count * 512)
        for k in keyframes { for o in map.observations(inKeyframe: k) { observed.append(Int32(o.point)) } }
        return distinct(observed)
    }

    /// `points` (indices of map points) without repeats, in order of first appearance.
    func distinct(_ points: some Sequence<Int32>) -> [Int32] {
        var seen = [Bool](repeating: false, count: pointCount)
        var kept: [Int32] = []
        kept.reserveCapacity(points.underestimatedCount)
        for p in points where !seen[Int(p)] {
            seen[Int(p)] = true
            kept.append(p)
        }
        return kept
    }
}
