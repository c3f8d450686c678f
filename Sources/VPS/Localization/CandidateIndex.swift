import Vision

/// Vocabulary node → map points (CSR), for global 2D–3D candidate search: a query
/// feature's candidates are the points under the same vocabulary node. Built once per
/// map; immutable and shared by every localizer of that map.
struct CandidateIndex: Sendable {
    let depth: Int
    private let offsets: [Int32]
    private let points: [Int32]
    /// Each word's node at `depth`: a frame quantizes its features to words once, and every
    /// index finds their nodes by lookup.
    private let nodeOfWord: [UInt32]

    init(map: VPSMap, vocabulary: Vocabulary, depth: Int) {
        self.depth = depth
        nodeOfWord = (0..<vocabulary.wordCount).map { vocabulary.ancestor(ofWord: UInt32($0), atDepth: depth) }
        let nodes = map.points.words.map { [nodeOfWord] in Self.node(ofWord: $0, in: nodeOfWord) }
        let nodeCount = (nodes.max().map { Int($0) } ?? -1) + 1
        let grouped = GroupedByKey(keys: nodes.map { Int($0) }, values: (0..<nodes.count).map { Int32($0) },
                                   keyCount: nodeCount)
        self.offsets = grouped.offsets
        self.points = grouped.values
    }

    /// The node at `depth` above `word` (the root, 0, for a word the vocabulary lacks).
    func node(ofWord word: UInt32) -> UInt32 { Self.node(ofWord: word, in: nodeOfWord) }

    private static func node(ofWord word: UInt32, in table: [UInt32]) -> UInt32 {
        Int(word) < table.count ? table[Int(word)] : 0
    }

    /// One candidate list per query word: the points under the word's node.
    func candidates(forWords queryWords: [UInt32]) -> CandidateLists {
        candidates(forNodes: queryWords.map(node(ofWord:)))
    }

    /// One candidate list per query node, written straight into CSR arrays (no per-list
    /// allocation: this runs for every feature of every frame).
    func candidates(forNodes queryNodes: [UInt32]) -> CandidateLists {
        var total = 0
        for n in queryNodes where Int(n) + 1 < offsets.count {
            total += Int(offsets[Int(n) + 1] - offsets[Int(n)])
        }
        var listOffsets = [Int32](repeating: 0, count: queryNodes.count + 1)
        var indices = [Int32]()
        indices.reserveCapacity(total)
        points.withUnsafeBufferPointer { pts in
            for (q, n) in queryNodes.enumerated() {
                let i = Int(n)
                if i + 1 < offsets.count {
                    indices.append(contentsOf: pts[Int(offsets[i])..<Int(offsets[i + 1])])
                }
                listOffsets[q + 1] = Int32(indices.count)
            }
        }
        // The arrays are consistent by construction.
        return CandidateLists(offsets: listOffsets, indices: indices)!
    }
}
