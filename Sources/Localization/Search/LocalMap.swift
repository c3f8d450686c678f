import Foundation
import Geometry
import MapModel

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
    let nearbyMaxAxisAngle = 60.0

    /// Point → keyframes observing it (CSR).
    private let keyframeOffsets: [Int32]
    private let keyframesOfPoint: [Int32]
    private let centres: [SIMD3<Double>]
    private let axes: [SIMD3<Double>]
    private let pointCount: Int
    /// Keyframe → the keyframes of its place (CSR): itself and the keyframes taken near it
    /// looking the same way (the same test as `keyframes(around:inlierPoints:)`).
    private let placeOffsets: [Int32]
    private let placeMembers: [Int32]
    /// The map's separately captured parts (none when it is one).
    let parts: MapParts

    init(map: VPSMap, nearbyRadius: Double, minPartKeyframes: Int = PlaceSearch().minPartKeyframes) {
        self.nearbyRadius = nearbyRadius
        parts = MapParts(map: map, minKeyframes: minPartKeyframes)
        pointCount = map.points.count
        let grouped = GroupedByKey(keys: map.observations.map { Int($0.point) },
                                   values: map.observations.map { Int32($0.keyframe) }, keyCount: pointCount)
        keyframeOffsets = grouped.offsets
        keyframesOfPoint = grouped.values
        centres = map.keyframes.map(\.pose.center)
        axes = map.keyframes.map { $0.pose.rotation.rotate(SIMD3(0, 0, 1)) }
        (placeOffsets, placeMembers) = Self.places(centres: centres, axes: axes, radius: nearbyRadius,
                                                   minCos: cos(nearbyMaxAxisAngle * .pi / 180))
    }

    /// Each keyframe's place, found through a grid of `radius`-sized cells (linear in the
    /// keyframes, where comparing every pair would grow with their square).
    private static func places(centres: [SIMD3<Double>], axes: [SIMD3<Double>], radius: Double,
                               minCos: Double) -> (offsets: [Int32], members: [Int32]) {
        // A radius that is no length (a map without scale) puts every keyframe in one cell.
        let cell = radius.isFinite && radius > 0 ? radius : .infinity
        func coordinate(_ x: Double) -> Int {
            let q = (x / cell).rounded(.down)
            return q.isFinite ? Int(max(-1e15, min(1e15, q))) : 0
        }
        func key(_ c: SIMD3<Double>) -> SIMD3<Int> { SIMD3(coordinate(c.x), coordinate(c.y), coordinate(c.z)) }
        var grid: [SIMD3<Int>: [Int32]] = [:]
        for (k, c) in centres.enumerated() where c.x.isFinite && c.y.isFinite && c.z.isFinite {
            grid[key(c), default: []].append(Int32(k))
        }
        var offsets: [Int32] = [0], members: [Int32] = []
        offsets.reserveCapacity(centres.count + 1)
        for (k, c) in centres.enumerated() {
            var place: [Int32] = [Int32(k)]
            if c.x.isFinite && c.y.isFinite && c.z.isFinite {
                let home = key(c)
                for dx in -1...1 { for dy in -1...1 { for dz in -1...1 {
                    for j in grid[home &+ SIMD3(dx, dy, dz)] ?? [] where Int(j) != k {
                        let d = centres[Int(j)] - c
                        if (d * d).sum() <= radius * radius, (axes[Int(j)] * axes[k]).sum() >= minCos { place.append(j) }
                    }
                } } }
            }
            members += place.sorted()
            offsets.append(Int32(members.count))
        }
        return (offsets, members)
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

    /// Keyframe `k`'s place, ascending: `k` and the keyframes taken near it looking its way
    /// (what `keyframes(around:inlierPoints:)` finds around `k`'s pose without inliers).
    func place(of k: Int) -> [Int] {
        placeMembers[Int(placeOffsets[k])..<Int(placeOffsets[k + 1])].map(Int.init)
    }

    /// Votes per place: a keyframe that has votes of its own (`keyframeVotes(for:)`) scores
    /// the votes of its whole place, as ORB-SLAM's relocalization accumulates a keyframe's
    /// score over its covisible keyframes. A view of a room spreads its votes over the
    /// keyframes that saw the room from there; look-alike content elsewhere votes for
    /// keyframes scattered over many rooms, which rarely share a place.
    func placeVotes(for points: some Sequence<Int>) -> [Float] {
        placeVotes(keyframeVotes: keyframeVotes(for: points))
    }

    /// As `placeVotes(for:)`, from the keyframes' own votes (`keyframeVotes(for:)`).
    func placeVotes(keyframeVotes own: [Float]) -> [Float] {
        var place = [Float](repeating: 0, count: own.count)
        for k in own.indices where own[k] > 0 {
            for j in Int(placeOffsets[k])..<Int(placeOffsets[k + 1]) { place[k] += own[Int(placeMembers[j])] }
        }
        return place
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
