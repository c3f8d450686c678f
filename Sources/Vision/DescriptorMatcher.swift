import VisionCore

/// One descriptor correspondence.
public struct DescriptorMatch: Sendable, Hashable {
    /// Index of the query descriptor.
    public var query: Int
    /// Index of the matched train descriptor.
    public var train: Int
    /// Hamming distance to it (0...256).
    public var distance: Int
    /// Hamming distance to the second-best candidate; nil when there was only one.
    public var secondDistance: Int?
}

/// Per-query lists of allowed train indices (CSR layout), for guided matching: the
/// localizer fills them from projection windows or vocabulary words.
public struct CandidateLists: Sendable, Hashable {
    /// `offsets[i] ..< offsets[i + 1]` indexes `indices` for query i; `offsets[0] == 0`.
    public private(set) var offsets: [Int32] = [0]
    public private(set) var indices: [Int32] = []

    public init() {}

    /// One list per query, in query order.
    public init(_ lists: [[Int]]) {
        offsets.reserveCapacity(lists.count + 1)
        indices.reserveCapacity(lists.reduce(0) { $0 + $1.count })
        for l in lists { append(l) }
    }

    /// Adopts lists already in CSR layout (as `vc_projection_search` writes them).
    /// Returns nil unless `offsets` starts at 0, never decreases and ends at `indices.count`.
    public init?(offsets: [Int32], indices: [Int32]) {
        guard offsets.first == 0, offsets.last == Int32(indices.count),
              zip(offsets, offsets.dropFirst()).allSatisfy({ $0 <= $1 }) else { return nil }
        self.offsets = offsets
        self.indices = indices
    }

    /// Adds the candidate list of the next query.
    public mutating func append(_ candidates: some Sequence<Int>) {
        for c in candidates { indices.append(Int32(truncatingIfNeeded: c)) }
        offsets.append(Int32(indices.count))
    }

    /// Number of queries with a list.
    public var queryCount: Int { offsets.count - 1 }
}

/// Hamming matching of 256-bit descriptors with hardware popcount.
///
/// Descriptors are contiguous byte arrays, 32 bytes each (as in `FeatureSet.descriptors`);
/// they are read in place, never copied.
public struct DescriptorMatcher: Sendable, Hashable {
    /// Lowe's ratio test: keep a match when best < ratio × second best. nil disables it.
    public var ratio: Float?
    /// Keep a match only when its distance is at most this (256 disables the check).
    public var maxDistance: Int
    /// Keep only pairs that are each other's best (one train descriptor per query).
    public var mutual: Bool

    public init(ratio: Float? = 0.8, maxDistance: Int = 256, mutual: Bool = false) {
        self.ratio = ratio
        self.maxDistance = maxDistance
        self.mutual = mutual
    }

    /// Hamming distance of two 32-byte descriptors.
    public static func distance(_ a: ArraySlice<UInt8>, _ b: ArraySlice<UInt8>) -> Int {
        precondition(a.count == 32 && b.count == 32, "descriptors are 32 bytes")
        return a.withUnsafeBufferPointer { pa in
            b.withUnsafeBufferPointer { pb in Int(vc_hamming_distance(pa.baseAddress, pb.baseAddress)) }
        }
    }

    private var cOptions: vc_match_options {
        vc_match_options(ratio: ratio ?? 0, max_distance: Int32(clamping: maxDistance), mutual: mutual ? 1 : 0)
    }

    private static func count(_ d: [UInt8], _ name: String) throws(VisionError) -> Int32 {
        guard d.count % 32 == 0 else {
            throw VisionError(.invalidArgument, "\(name) descriptors: \(d.count) bytes is not a multiple of 32")
        }
        return Int32(d.count / 32)
    }

    private static func convert(_ m: vc_match) -> DescriptorMatch {
        DescriptorMatch(query: Int(m.query), train: Int(m.train), distance: Int(m.distance),
                        secondDistance: m.second_distance > 256 ? nil : Int(m.second_distance))
    }

    /// Runs a C matcher that writes at most `queries` matches, and converts its output.
    private static func collect(queries: Int32,
                                _ call: (UnsafeMutablePointer<vc_match>?, inout Int32) -> vc_status)
        throws(VisionError) -> [DescriptorMatch] {
        var raw = [vc_match](repeating: vc_match(), count: Int(queries))
        var n: Int32 = 0
        let status = raw.withUnsafeMutableBufferPointer { out in call(out.baseAddress, &n) }
        try VisionError.check(status)
        return raw.prefix(Int(n)).map(Self.convert)
    }

    /// For every query descriptor, the nearest train descriptor (filtered by the ratio test,
    /// distance limit and mutual check). Ordered by query index.
    public func match(query: [UInt8], train: [UInt8]) throws(VisionError) -> [DescriptorMatch] {
        let nq = try Self.count(query, "query"), nt = try Self.count(train, "train")
        var opts = cOptions
        return try Self.collect(queries: nq) { out, n in
            query.withUnsafeBufferPointer { q in
                train.withUnsafeBufferPointer { t in
                    vc_match_bruteforce(q.baseAddress, nq, t.baseAddress, nt, &opts, out, &n)
                }
            }
        }
    }

    /// Guided matching: query i is compared only with the train indices in its candidate
    /// list. With `mutual`, a train descriptor claimed by several queries goes to the
    /// closest. Throws `.invalidArgument` when the lists do not cover every query or name a
    /// train index out of range.
    public func match(query: [UInt8], train: [UInt8], candidates: CandidateLists) throws(VisionError) -> [DescriptorMatch] {
        let nq = try Self.count(query, "query"), nt = try Self.count(train, "train")
        guard candidates.queryCount == Int(nq) else {
            throw VisionError(.invalidArgument, "\(candidates.queryCount) candidate lists for \(nq) queries")
        }
        var opts = cOptions
        return try Self.collect(queries: nq) { out, n in
            query.withUnsafeBufferPointer { q in
                train.withUnsafeBufferPointer { t in
                    candidates.offsets.withUnsafeBufferPointer { off in
                        candidates.indices.withUnsafeBufferPointer { idx in
                            vc_match_guided(q.baseAddress, nq, t.baseAddress, nt, off.baseAddress,
                                            idx.baseAddress, &opts, out, &n)
                        }
                    }
                }
            }
        }
    }

    /// Bucketed matching: `train` is grouped in contiguous runs, bucket b being descriptors
    /// `bucketOffsets[b] ..< bucketOffsets[b + 1]` (say, the map points under one vocabulary
    /// node, stored together); query i is compared with every descriptor of each bucket in
    /// its list `buckets` (bucket indices). Reads consecutive memory and builds no
    /// per-candidate index list. Matches name train descriptors, not buckets.
    ///
    /// With `trainGroups` (one id per train descriptor, e.g. the map point of each of a
    /// point's several descriptors) the ratio test compares the best descriptor with the
    /// best of any other group: descriptors of one point never fail each other's test.
    ///
    /// With `trainMask` (one byte per train descriptor) only descriptors whose byte is
    /// nonzero are compared, as if the buckets held no others.
    public func match(query: [UInt8], train: [UInt8], bucketOffsets: [Int32],
                      buckets: CandidateLists, trainGroups: [Int32]? = nil,
                      trainMask: [UInt8]? = nil) throws(VisionError) -> [DescriptorMatch] {
        let nq = try Self.count(query, "query"), nt = try Self.count(train, "train")
        if let g = trainGroups, g.count != Int(nt) {
            throw VisionError(.invalidArgument, "\(g.count) train groups for \(nt) train descriptors")
        }
        if let m = trainMask, m.count != Int(nt) {
            throw VisionError(.invalidArgument, "\(m.count) mask bytes for \(nt) train descriptors")
        }
        guard buckets.queryCount == Int(nq) else {
            throw VisionError(.invalidArgument, "\(buckets.queryCount) bucket lists for \(nq) queries")
        }
        guard !bucketOffsets.isEmpty else { throw VisionError(.invalidArgument, "no bucket offsets") }
        var opts = cOptions
        return try Self.collect(queries: nq) { out, n in
            query.withUnsafeBufferPointer { q in
                train.withUnsafeBufferPointer { t in
                    bucketOffsets.withUnsafeBufferPointer { bo in
                        buckets.offsets.withUnsafeBufferPointer { off in
                            buckets.indices.withUnsafeBufferPointer { idx in
                                withOptionalBuffer(trainGroups) { groups in
                                    withOptionalBuffer(trainMask) { mask in
                                        vc_match_buckets_masked(q.baseAddress, nq, t.baseAddress, nt, bo.baseAddress,
                                                                Int32(bo.count - 1), off.baseAddress, idx.baseAddress,
                                                                groups, mask, &opts, out, &n)
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}

/// `body` with the array's base address, or with nil when there is no array.
private func withOptionalBuffer<T, R>(_ array: [T]?, _ body: (UnsafePointer<T>?) -> R) -> R {
    guard let array else { return body(nil) }
    return array.withUnsafeBufferPointer { body($0.baseAddress) }
}
