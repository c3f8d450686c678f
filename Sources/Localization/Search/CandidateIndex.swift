import Vision
import MapModel

/// Vocabulary node → map points, for global 2D–3D candidate search: a query feature's
/// candidates are the points under the same vocabulary node (or, probing, under the few
/// nodes its descriptor lies nearly as close to). Built once per map; immutable and shared
/// by every localizer of that map.
///
/// It holds the map's view descriptors (`VPSMap.viewDescriptors`: one per distinct
/// viewing direction of each point), so a point is reachable from every view it was
/// mapped from. The index keeps its own copy of them grouped by node (one *bucket*
/// per node), so a feature's candidates are one contiguous run of memory rather than ~30
/// scattered reads across the map's descriptors, and matching needs no per-candidate
/// list: each feature names its buckets. `point(inSlot:)` names the map point behind a
/// matched slot.
struct CandidateIndex: Sendable {
    let depth: Int
    /// Bucket (node) n holds slots `bucketOffsets[n] ..< bucketOffsets[n + 1]`; one bucket
    /// per vocabulary node, so any node the vocabulary gives is a valid bucket.
    let bucketOffsets: [Int32]
    /// 32 bytes per slot: a view descriptor of `points[slot]`.
    let descriptors: [UInt8]
    /// The map point of each slot; the matcher's train groups (several slots may hold
    /// descriptors of one point, which must not fail each other's ratio test).
    let points: [Int32]
    /// Point p's slots are `slotsOfPoint[slotOffsets[p] ..< slotOffsets[p + 1]]`.
    private let slotOffsets: [Int32]
    private let slotsOfPoint: [Int32]

    init(map: VPSMap, vocabulary: Vocabulary, depth: Int) {
        self.depth = depth
        // Each word's node at `depth`, then each view descriptor's (a word the vocabulary
        // lacks goes to the root, 0).
        let views = map.viewDescriptors
        let nodeOfWord = (0..<vocabulary.wordCount).map { vocabulary.ancestor(ofWord: UInt32($0), atDepth: depth) }
        let nodes = views.words.map { Int($0) < nodeOfWord.count ? nodeOfWord[Int($0)] : 0 }
        let nodeCount = max(vocabulary.nodeCount, (nodes.max().map { Int($0) } ?? -1) + 1)
        let grouped = GroupedByKey(keys: nodes.map { Int($0) }, values: (0..<nodes.count).map { Int32($0) },
                                   keyCount: nodeCount)
        bucketOffsets = grouped.offsets
        points = grouped.values.map { Int32(views.points[Int($0)]) }
        var ordered = [UInt8](repeating: 0, count: 32 * grouped.values.count)
        views.descriptors.withUnsafeBufferPointer { all in
            for (slot, v) in grouped.values.enumerated() {
                for b in 0..<32 { ordered[32 * slot + b] = all[32 * Int(v) + b] }
            }
        }
        descriptors = ordered
        let byPoint = GroupedByKey(keys: points.map { Int($0) }, values: (0..<points.count).map { Int32($0) },
                                   keyCount: map.points.count)
        slotOffsets = byPoint.offsets
        slotsOfPoint = byPoint.values
    }

    /// A mask over the slots (1: compared, 0: skipped) holding exactly the slots of the
    /// points `keyframes` observe.
    func mask(observedBy keyframes: [Int], in map: VPSMap) -> [UInt8] {
        var mask = [UInt8](repeating: 0, count: points.count)
        for k in keyframes {
            for o in map.observations(inKeyframe: k) {
                let p = Int(o.point)
                for i in Int(slotOffsets[p])..<Int(slotOffsets[p + 1]) { mask[Int(slotsOfPoint[i])] = 1 }
            }
        }
        return mask
    }

    /// The map point whose descriptor sits in `slot`.
    func point(inSlot slot: Int) -> Int { Int(points[slot]) }

    /// Every slot for each of `queries` queries, as bucket offsets of one bucket that holds
    /// them all and that bucket for each query: the exhaustive search of a small map.
    func everySlot(queries: Int) -> (bucketOffsets: [Int32], buckets: CandidateLists) {
        // One entry per query, in order: consistent by construction.
        ([0, Int32(points.count)], CandidateLists(offsets: (0...Int32(queries)).map { $0 },
                                                  indices: [Int32](repeating: 0, count: queries))!)
    }

    /// One bucket per query: its node at `depth` (`Vocabulary.nodes(for:atDepth:)`).
    func buckets(forNodes queryNodes: [UInt32]) -> CandidateLists {
        // One entry per query, in order: consistent by construction.
        CandidateLists(offsets: (0...Int32(queryNodes.count)).map { $0 },
                       indices: queryNodes.map { Int32(bitPattern: $0) })!
    }

    /// The buckets of each query's probed nodes (`Vocabulary.probes` at this index's depth).
    func buckets(forProbes probes: (offsets: [Int32], nodes: [UInt32])) -> CandidateLists {
        // Vocabulary.probes writes consistent CSR arrays.
        CandidateLists(offsets: probes.offsets, indices: probes.nodes.map { Int32(bitPattern: $0) })!
    }
}
