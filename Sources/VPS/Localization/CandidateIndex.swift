import Vision

/// Vocabulary node → map points, for global 2D–3D candidate search: a query feature's
/// candidates are the points under the same vocabulary node (or, probing, under the few
/// nodes its descriptor lies nearly as close to). Built once per map; immutable and shared
/// by every localizer of that map.
///
/// The index keeps its own copy of the points' descriptors grouped by node (one *bucket*
/// per node), so a feature's candidates are one contiguous run of memory rather than ~30
/// scattered reads across the map's descriptors, and matching needs no per-candidate
/// list: each feature names its buckets. `point(inSlot:)` names the map point behind a
/// matched slot.
struct CandidateIndex: Sendable {
    let depth: Int
    /// Bucket (node) n holds slots `bucketOffsets[n] ..< bucketOffsets[n + 1]`; one bucket
    /// per vocabulary node, so any node the vocabulary gives is a valid bucket.
    let bucketOffsets: [Int32]
    /// 32 bytes per slot: the descriptor of `points[slot]`.
    let descriptors: [UInt8]
    private let points: [Int32]
    /// Each word's node at `depth`: a frame quantizes its features to words once, and every
    /// index finds their nodes by lookup.
    private let nodeOfWord: [UInt32]

    init(map: VPSMap, vocabulary: Vocabulary, depth: Int) {
        self.depth = depth
        nodeOfWord = (0..<vocabulary.wordCount).map { vocabulary.ancestor(ofWord: UInt32($0), atDepth: depth) }
        let nodes = map.points.words.map { [nodeOfWord] in Self.node(ofWord: $0, in: nodeOfWord) }
        let nodeCount = max(vocabulary.nodeCount, (nodes.max().map { Int($0) } ?? -1) + 1)
        let grouped = GroupedByKey(keys: nodes.map { Int($0) }, values: (0..<nodes.count).map { Int32($0) },
                                   keyCount: nodeCount)
        bucketOffsets = grouped.offsets
        points = grouped.values
        var ordered = [UInt8](repeating: 0, count: 32 * grouped.values.count)
        map.points.descriptors.withUnsafeBufferPointer { all in
            for (slot, p) in grouped.values.enumerated() {
                for b in 0..<32 { ordered[32 * slot + b] = all[32 * Int(p) + b] }
            }
        }
        descriptors = ordered
    }

    /// The map point whose descriptor sits in `slot`.
    func point(inSlot slot: Int) -> Int { Int(points[slot]) }

    /// The node at `depth` above `word` (the root, 0, for a word the vocabulary lacks).
    func node(ofWord word: UInt32) -> UInt32 { Self.node(ofWord: word, in: nodeOfWord) }

    private static func node(ofWord word: UInt32, in table: [UInt32]) -> UInt32 {
        Int(word) < table.count ? table[Int(word)] : 0
    }

    /// One bucket per query word: its node at `depth`.
    func buckets(forWords queryWords: [UInt32]) -> CandidateLists {
        let nodes = queryWords.map { Int32(bitPattern: node(ofWord: $0)) }
        // One entry per query, in order: consistent by construction.
        return CandidateLists(offsets: (0...Int32(nodes.count)).map { $0 }, indices: nodes)!
    }

    /// The buckets of each query's probed nodes (`Vocabulary.probes` at this index's depth).
    func buckets(forProbes probes: (offsets: [Int32], nodes: [UInt32])) -> CandidateLists {
        // Vocabulary.probes writes consistent CSR arrays.
        CandidateLists(offsets: probes.offsets, indices: probes.nodes.map { Int32(bitPattern: $0) })!
    }
}
