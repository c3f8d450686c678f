import MapModel

/// The parts of a map that no point joins: keyframes that share no observed point, directly
/// or through other keyframes, belong to different parts. A map captured in one go is one
/// part; a venue joined from separate captures (`arcloud map merge`) has one per capture.
///
/// Parts matter for evidence. Matched against the whole venue, a feature meets the
/// look-alikes of every part (the same floors, doors and posters in each gallery) and its
/// right match fails the ratio test, so the more parts a venue holds the fewer matches
/// survive anywhere. Matched within one part, it meets only that part's points, as on the
/// part's own map: the evidence for the right part does not fall as parts are added.
struct MapParts: Sendable, Hashable {
    /// The keyframes of each part, ascending; parts in the order of their first keyframe.
    /// Empty when the map is one part (there is nothing to search apart).
    let keyframes: [[Int]]
    /// The part of each keyframe, −1 for keyframes in no part (fragments too small to be one).
    let partOfKeyframe: [Int32]

    var count: Int { keyframes.count }

    /// - Parameter minKeyframes: a connected set of fewer keyframes is a fragment (a stray
    ///   keyframe that shares no point), not a capture of its own; the whole-map searches
    ///   still see its points.
    init(map: VPSMap, minKeyframes: Int) {
        let n = map.keyframes.count
        var parent = Array(0..<n)
        func root(_ k: Int) -> Int {
            var k = k
            while parent[k] != k { parent[k] = parent[parent[k]]; k = parent[k] }
            return k
        }
        // Observations are sorted by keyframe: join each point's keyframes through its first.
        var firstKeyframe = [Int32](repeating: -1, count: map.points.count)
        for o in map.observations {
            let p = Int(o.point), k = Int(o.keyframe)
            if firstKeyframe[p] < 0 { firstKeyframe[p] = Int32(k); continue }
            let a = root(Int(firstKeyframe[p])), b = root(k)
            if a != b { parent[max(a, b)] = min(a, b) }
        }
        var members: [Int: [Int]] = [:]
        for k in 0..<n { members[root(k), default: []].append(k) }
        let parts = members.values.filter { $0.count >= minKeyframes }.sorted { $0[0] < $1[0] }
        var partOf = [Int32](repeating: -1, count: n)
        if parts.count > 1 {
            for (i, part) in parts.enumerated() { for k in part { partOf[k] = Int32(i) } }
        }
        keyframes = parts.count > 1 ? parts : []
        partOfKeyframe = partOf
    }

    /// Parts by the votes of their keyframes, most first (ties: the earlier part).
    func ranked(byKeyframeVotes votes: [Float]) -> [Int] {
        var total = [Float](repeating: 0, count: count)
        for (k, v) in votes.enumerated() where k < partOfKeyframe.count && partOfKeyframe[k] >= 0 {
            total[Int(partOfKeyframe[k])] += v
        }
        return total.indices.sorted { (total[$0], $1) > (total[$1], $0) }
    }
}
