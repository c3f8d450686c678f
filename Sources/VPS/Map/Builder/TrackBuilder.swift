/// Joins pairwise feature matches into multi-view tracks (union-find over
/// (keyframe, feature) nodes), one observation per keyframe per track.
struct TrackBuilder {
    /// `offsets[k] + f` is the node of feature f of keyframe k.
    private let offsets: [Int]
    private var parent: [Int32]
    private var rank: [UInt8]

    init(featureCounts: [Int]) {
        var o = [0]
        for c in featureCounts { o.append(o.last! + c) }
        offsets = o
        parent = (0..<o.last!).map { Int32($0) }
        rank = [UInt8](repeating: 0, count: o.last!)
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
        if rank[x] < rank[y] { parent[x] = Int32(y) }
        else if rank[x] > rank[y] { parent[y] = Int32(x) }
        else { parent[y] = Int32(x); rank[x] += 1 }
    }

    struct Observation: Sendable, Hashable {
        var keyframe: Int
        var feature: Int
    }

    /// Tracks of at least two keyframes, in a deterministic order (by first node). When a
    /// track holds two features of one keyframe (a wrong match somewhere), only the first is
    /// kept; `conflicts` counts how often.
    mutating func tracks() -> (tracks: [[Observation]], conflicts: Int) {
        var groups: [Int: [Int]] = [:]
        for node in 0..<parent.count {
            let r = find(node)
            if r != node || groups[r] != nil { groups[r, default: []].append(node) }
        }
        var out: [[Observation]] = []
        var conflicts = 0
        for root in groups.keys.sorted() {
            var nodes = groups[root]!
            if !nodes.contains(root) { nodes.append(root) }
            nodes.sort()
            var track: [Observation] = []
            var lastKeyframe = -1
            for node in nodes {
                let k = keyframe(of: node)
                if k == lastKeyframe { conflicts += 1; continue }
                track.append(Observation(keyframe: k, feature: node - offsets[k]))
                lastKeyframe = k
            }
            if track.count >= 2 { out.append(track) }
        }
        return (out, conflicts)
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
