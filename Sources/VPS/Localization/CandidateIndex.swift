import Vision

/// Vocabulary node → map points (CSR), for global 2D–3D candidate search: a query
/// feature's candidates are the points under the same vocabulary node. Built once per
/// map; immutable and shared by every localizer of that map.
struct CandidateIndex: Sendable {
    let depth: Int
    private let offsets: [Int32]
    private let points: [Int32]

    init(map: VPSMap, vocabulary: Vocabulary, depth: Int) {
        self.depth = depth
        let nodes = map.points.words.map { vocabulary.ancestor(ofWord: $0, atDepth: depth) }
        let nodeCount = (nodes.max().map { Int($0) } ?? -1) + 1
        var offsets = [Int32](repeating: 0, count: nodeCount + 1)
        for n in nodes { offsets[Int(n) + 1] += 1 }
        for i in 0..<nodeCount { offsets[i + 1] += offsets[i] }
        var fill = Array(offsets.dropLast())
        var points = [Int32](repeating: 0, count: nodes.count)
        for (p, n) in nodes.enumerated() {
            points[Int(fill[Int(n)])] = Int32(p)
            fill[Int(n)] += 1
        }
        self.offsets = offsets
        self.points = points
    }

    /// One candidate list per query node.
    func candidates(forNodes queryNodes: [UInt32]) -> CandidateLists {
        var lists = CandidateLists()
        for n in queryNodes {
            let i = Int(n)
            if i + 1 < offsets.count {
                lists.append(points[Int(offsets[i])..<Int(offsets[i + 1])].lazy.map { Int($0) })
            } else {
                lists.append(EmptyCollection<Int>())
            }
        }
        return lists
    }
}
