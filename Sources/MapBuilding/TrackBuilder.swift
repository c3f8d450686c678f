/// Joins pairwise feature matches into multi-view tracks (union-find over
/// (keyframe, feature) nodes), one observation per keyframe per track.
///
/// A union that would put two features of one keyframe into a track is refused: one of
/// the matches is wrong (or the same corner was detected twice), and accepting it would
/// chain unrelated points into one track. Feed the best matches first.
struct TrackBuilder {
    /// `offsets[k] + f` is the node of feature f of keyframe k.
    private let offsets: [Int]
    private var parent: [Int32]
    private var rank: [UInt8]
    /// Keyframes of each root's track (only meaningful at roots).
    private var keyframesOf: [[Int32]]
    /// Unions refused because they would repeat a keyframe in a track.
    private(set) var conflicts = 0

    init(featureCounts: [Int]) {
        var o = [0]
        for c in featureCounts { o.append(o.last! + c) }
        offsets = o
        parent = (0..<o.last!).map { Int32($0) }
        rank = [UInt8](repeating: 0, count: o.last!)
        keyframesOf = []
        keyframesOf.reserveCapacity(o.last!)
        for k in 0..<featureCounts.count {
            for _ in 0..<featureCounts[k] { keyframesOf.append([Int32(k)]) }
        }
    }

    private mutating func find(_ x: Int) -> Int {
        var r = x
        while Int(parent[r]) != r { r = Int(parent[r]) }
        var c = x
        while Int(parent[c]) != r { let next = Int(parent[c]); parent[c] = Int32(r); c = next }
        return r
    }

    /// Records that feature `fa` of keyframe `a` and feature `fb` of keyframe `b` are one point.
    mutating func union(_ a: Int, _ fa: Int, _ b: Int, _ fb: Int) {
        let x = find(offsets[a] + fa), y = find(offsets[b] + fb)
        if x == y { return }
        let kx = keyframesOf[x], ky = keyframesOf[y]
        if kx.contains(where: { ky.contains($0) }) { conflicts += 1; return }
        let root: Int, child: Int
        if rank[x] < rank[y] { root = y; child = x }
        else if rank[x] > rank[y] { root = x; child = y }
        else { root = x; child = y; rank[x] += 1 }
        parent[child] = Int32(root)
        keyframesOf[root] = kx + ky
        keyframesOf[child] = []
    }

    struct Observation: Sendable, Hashable {
        var keyframe: Int
        var feature: Int
    }

    /// Tracks of at least two keyframes, in a deterministic order (by first node), each
    /// observation ordered by keyframe.
    mutating func tracks() -> [[Observation]] {
        var groups: [Int: [Int]] = [:]
        for node in 0..<parent.count where keyframesOf[find(node)].count >= 2 {
            groups[find(node), default: []].append(node)
        }
        return groups.values.map { nodes in
            nodes.map { Observation(keyframe: keyframe(of: $0), feature: $0 - offsets[keyframe(of: $0)]) }
        }.sorted { ($0[0].keyframe, $0[0].feature) < ($1[0].keyframe, $1[0].feature) }
    }

    private func keyframe(of node: Int) -> Int {
        // Binary search in offsets: the last k with offsets[k] <= node.
        var lo = 0, hi = offsets.count - 1
        while hi - lo > 1 {
            let mid = (lo + hi) / 2
            if offsets[mid] <= node { lo = mid } else { hi = mid }
        }
        return lo
    }
}
