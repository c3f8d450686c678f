import Vision

/// Vocabulary node → map points (CSR), for global 2D–3D candidate search: a query
/// feature's candidates are the points under the same vocabulary node. Built once per
/// map; immutable and shared by every localizer of that map.
///
/// The points' descriptors are kept again in node order, so matching reads each node's
/// candidates as one contiguous block instead of gathering them from across the map.
/// Candidate lists therefore hold *slots* (positions in node order); `point(atSlot:)`
/// turns a matched slot back into a map point.
struct CandidateIndex: Sendable {
    let depth: Int
    private let offsets: [Int32]
    private let points: [Int32]
    /// `descriptors[32 * slot ..< 32 * slot + 32]` is the descriptor of `points[slot]`.
    let descriptors: [UInt8]

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
        var descriptors = [UInt8](repeating: 0, count: points.count * 32)
        map.points.descriptors.withUnsafeBufferPointer { src in
            for (slot, p) in points.enumerated() {
                for b in 0..<32 { descriptors[32 * slot + b] = src[32 * Int(p) + b] }
            }
        }
        self.descriptors = descriptors
    }

    /// The map point held in `slot`.
    func point(atSlot slot: Int) -> Int { Int(points[slot]) }

    /// One candidate list of slots per query node, written straight into CSR arrays (no
    /// per-list allocation: this runs for every feature of every frame).
    func candidates(forNodes queryNodes: [UInt32]) -> CandidateLists {
        var total = 0
        for n in queryNodes where Int(n) + 1 < offsets.count {
            total += Int(offsets[Int(n) + 1] - offsets[Int(n)])
        }
        var listOffsets = [Int32](repeating: 0, count: queryNodes.count + 1)
        var indices = [Int32]()
        indices.reserveCapacity(total)
        for (q, n) in queryNodes.enumerated() {
            let i = Int(n)
            if i + 1 < offsets.count { indices.append(contentsOf: offsets[i]..<offsets[i + 1]) }
            listOffsets[q + 1] = Int32(indices.count)
        }
        // The arrays are consistent by construction.
        return CandidateLists(offsets: listOffsets, indices: indices)!
    }
}
