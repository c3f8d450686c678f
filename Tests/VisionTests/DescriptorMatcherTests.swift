import Testing
import Vision
import TestSupport

@Suite struct DescriptorMatcherTests {
    /// Random descriptors, and copies of them with `flips` bits flipped.
    func descriptors(_ n: Int, seed: UInt64) -> [UInt8] {
        var rng = SplitMix(seed: seed)
        return (0 ..< n * 32).map { _ in UInt8.random(in: 0 ... 255, using: &rng) }
    }
    func flip(_ d: [UInt8], bits: Int, seed: UInt64) -> [UInt8] {
        var rng = SplitMix(seed: seed)
        var out = d
        for i in 0 ..< d.count / 32 {
            var chosen = Set<Int>()
            while chosen.count < bits { chosen.insert(Int.random(in: 0 ..< 256, using: &rng)) }
            for b in chosen { out[i * 32 + b / 8] ^= UInt8(1 << (b % 8)) }
        }
        return out
    }

    @Test func hammingDistanceCountsBits() {
        let a = [UInt8](repeating: 0, count: 32)
        var b = a
        b[0] = 0xFF; b[31] = 0x01; b[17] = 0x10
        #expect(DescriptorMatcher.distance(a[...], b[...]) == 10)
        #expect(DescriptorMatcher.distance(b[...], b[...]) == 0)
    }

    @Test func bruteForceFindsPerturbedCopies() throws {
        let train = descriptors(300, seed: 1)
        let query = flip(train, bits: 20, seed: 2)
        let m = try DescriptorMatcher(ratio: 0.8).match(query: query, train: train)
        #expect(m.count == 300)
        #expect(m.allSatisfy { $0.query == $0.train && $0.distance == 20 })
        #expect(m.allSatisfy { ($0.secondDistance ?? 0) > 80 })
    }

    @Test func ratioTestRejectsAmbiguousMatches() throws {
        var train = descriptors(50, seed: 3)
        // Train 1 is a twin of train 0: a query close to both is ambiguous.
        train.replaceSubrange(32 ..< 64, with: Array(train[0 ..< 32]))
        let query = flip(Array(train[0 ..< 32]), bits: 10, seed: 5) + flip(Array(train[64 ..< 96]), bits: 10, seed: 6)
        let all = try DescriptorMatcher(ratio: nil).match(query: query, train: train)
        #expect(all.count == 2)
        let strict = try DescriptorMatcher(ratio: 0.8).match(query: query, train: train)
        #expect(strict.map(\.query) == [1])
        #expect(strict[0].train == 2)
        let capped = try DescriptorMatcher(ratio: nil, maxDistance: 5).match(query: query, train: train)
        #expect(capped.isEmpty)
    }

    /// Two descriptors of one map point (train 0 and 1, grouped) must not fail each
    /// other's ratio test; a twin in another group (train 2 vs 3) still does.
    @Test func groupedRatioTestComparesOtherGroupsOnly() throws {
        var train = descriptors(40, seed: 11)
        train.replaceSubrange(32 ..< 64, with: flip(Array(train[0 ..< 32]), bits: 1, seed: 12))
        train.replaceSubrange(96 ..< 128, with: Array(train[64 ..< 96]))
        let query = flip(Array(train[0 ..< 32]), bits: 10, seed: 13) + flip(Array(train[64 ..< 96]), bits: 10, seed: 14)
        let groups: [Int32] = [0, 0] + (2 ..< 40).map { Int32($0) }
        let bucketOffsets: [Int32] = [0, 40]
        let buckets = CandidateLists([[0], [0]])
        let matcher = DescriptorMatcher(ratio: 0.8)
        let plain = try matcher.match(query: query, train: train, bucketOffsets: bucketOffsets, buckets: buckets)
        #expect(plain.isEmpty)
        let grouped = try matcher.match(query: query, train: train, bucketOffsets: bucketOffsets, buckets: buckets,
                                        trainGroups: groups)
        #expect(grouped.count == 1 && grouped[0].query == 0 && grouped[0].train < 2)
        #expect((grouped[0].secondDistance ?? 0) > 80)
        #expect(throws: VisionError.self) {
            try matcher.match(query: query, train: train, bucketOffsets: bucketOffsets, buckets: buckets, trainGroups: [0])
        }
    }

    @Test func mutualCheckKeepsOneToOnePairs() throws {
        let train = descriptors(20, seed: 7)
        // Two queries near the same train descriptor 5: only the closer survives mutual.
        let q = flip(Array(train[160 ..< 192]), bits: 3, seed: 8) + flip(Array(train[160 ..< 192]), bits: 12, seed: 9)
        let plain = try DescriptorMatcher(ratio: nil).match(query: q, train: train)
        #expect(plain.map(\.train) == [5, 5])
        let mutual = try DescriptorMatcher(ratio: nil, mutual: true).match(query: q, train: train)
        #expect(mutual.count == 1 && mutual[0].query == 0 && mutual[0].train == 5)
    }

    /// Mutual matching over candidate lists (the map builder's epipolar matching): each
    /// train descriptor keeps its closest query, a tie going to the lower query index, and
    /// the survivors stay in query order.
    @Test func guidedMutualKeepsTheClosestQueryPerTrainInQueryOrder() throws {
        let train = descriptors(10, seed: 30)
        let t = { (i: Int) in Array(train[32 * i ..< 32 * (i + 1)]) }
        // q0 → 3; q1 (6 bits off) and q2 (2 bits off) → 7; q3 and q4 identical → 4.
        let q4 = flip(t(4), bits: 5, seed: 34)
        let query = flip(t(3), bits: 4, seed: 31) + flip(t(7), bits: 6, seed: 32) + flip(t(7), bits: 2, seed: 33) + q4 + q4
        let lists = CandidateLists([[3], [7], [7], [4], [4]])
        let all = try DescriptorMatcher(ratio: nil).match(query: query, train: train, candidates: lists)
        #expect(all.map(\.train) == [3, 7, 7, 4, 4])
        let mutual = try DescriptorMatcher(ratio: nil, mutual: true).match(query: query, train: train, candidates: lists)
        #expect(mutual.map(\.query) == [0, 2, 3])
        #expect(mutual.map(\.train) == [3, 7, 4])
    }

    @Test func guidedMatchingSearchesOnlyTheCandidates() throws {
        let train = descriptors(100, seed: 10)
        let query = flip(train, bits: 15, seed: 11)
        // Query i may only look at i's neighbours (i-1, i+1): its true twin is excluded for
        // odd i, so those match something worse and the ratio test drops them.
        var lists = CandidateLists()
        for i in 0 ..< 100 { lists.append(i % 2 == 0 ? [i, (i + 1) % 100] : [(i + 1) % 100, (i + 99) % 100]) }
        let m = try DescriptorMatcher(ratio: 0.7).match(query: query, train: train, candidates: lists)
        #expect(m.map(\.query) == Array(stride(from: 0, to: 100, by: 2)))
        #expect(m.allSatisfy { $0.train == $0.query && $0.distance == 15 })
        // Mutual on guided lists: two queries that both only see train 0 → one wins.
        let two = try DescriptorMatcher(ratio: nil, mutual: true)
            .match(query: Array(query[0 ..< 64]), train: train, candidates: CandidateLists([[0], [0]]))
        #expect(two.count == 1 && two[0].query == 0)
        // Empty lists are fine; out-of-range indices are not.
        #expect(try DescriptorMatcher().match(query: Array(query[0 ..< 32]), train: train, candidates: CandidateLists([[]])).isEmpty)
        #expect(throws: VisionError.self) {
            try DescriptorMatcher().match(query: Array(query[0 ..< 32]), train: train, candidates: CandidateLists([[100]]))
        }
        #expect(throws: VisionError.self) {
            try DescriptorMatcher().match(query: Array(query[0 ..< 64]), train: train, candidates: CandidateLists([[1]]))
        }
    }

    /// Buckets are contiguous runs of train descriptors: matching a query against its
    /// buckets is guided matching against the indices those runs cover.
    @Test func bucketMatchingEqualsGuidedMatchingOverTheBuckets() throws {
        let train = descriptors(400, seed: 21)
        let query = flip(Array(train[0 ..< 32 * 120]), bits: 20, seed: 22) + descriptors(30, seed: 23)
        let nq = query.count / 32
        // 40 buckets of uneven size covering the first 390 train descriptors.
        var bucketOffsets: [Int32] = [0]
        var rng = SplitMix(seed: 24)
        for b in 0 ..< 40 { bucketOffsets.append(b == 39 ? 390 : min(390, bucketOffsets.last! + Int32.random(in: 0 ... 19, using: &rng))) }
        var buckets = CandidateLists(), lists = CandidateLists()
        for _ in 0 ..< nq {
            let mine = (0 ..< Int.random(in: 0 ... 4, using: &rng)).map { _ in Int.random(in: 0 ..< 40, using: &rng) }
            buckets.append(mine)
            lists.append(mine.flatMap { Int(bucketOffsets[$0]) ..< Int(bucketOffsets[$0 + 1]) })
        }
        for matcher in [DescriptorMatcher(ratio: 0.8), DescriptorMatcher(ratio: nil, maxDistance: 60, mutual: true)] {
            let byBuckets = try matcher.match(query: query, train: train, bucketOffsets: bucketOffsets, buckets: buckets)
            let guided = try matcher.match(query: query, train: train, candidates: lists)
            #expect(byBuckets == guided)
            #expect(!byBuckets.isEmpty)
        }
        // A bucket that does not exist, or buckets reaching past the train set, are refused.
        var bad = CandidateLists()
        for q in 0 ..< nq { bad.append(q == 3 ? [40] : []) }
        #expect(throws: VisionError.self) {
            try DescriptorMatcher().match(query: query, train: train, bucketOffsets: bucketOffsets, buckets: bad)
        }
        #expect(throws: VisionError.self) {
            try DescriptorMatcher().match(query: query, train: train, bucketOffsets: [0, 401], buckets: buckets)
        }
        #expect(throws: VisionError.self) {
            try DescriptorMatcher().match(query: query, train: train, bucketOffsets: [0, 5, 3], buckets: buckets)
        }
    }

    /// A bucket is scanned in blocks of four that skip any block unable to change the best
    /// two distances; a mask scans it one descriptor at a time. Both give the same matches,
    /// with and without groups, for buckets of every length modulo four.
    @Test func blockScanEqualsOneAtATime() throws {
        let train = descriptors(503, seed: 31)
        // Near twins in other groups, so that the second distances and the ratio test matter.
        var twins = train
        twins.replaceSubrange(32 * 250 ..< 32 * 400, with: flip(Array(train[0 ..< 32 * 150]), bits: 6, seed: 32))
        let query = flip(Array(twins[0 ..< 32 * 200]), bits: 18, seed: 33) + descriptors(40, seed: 34)
        let nq = query.count / 32
        let groups = (0 ..< 503).map { Int32($0 / 3) }
        let everything = [UInt8](repeating: 1, count: 503)
        for offsets: [Int32] in [[0, 503], [0, 1, 6, 13, 100, 101, 503], [0, 2, 3, 503]] {
            let buckets = CandidateLists((0 ..< nq).map { q in q % 3 == 0 ? [0] : Array(0 ..< offsets.count - 1) })
            for matcher in [DescriptorMatcher(ratio: 0.8), DescriptorMatcher(ratio: nil, maxDistance: 60, mutual: true)] {
                for g in [nil, groups] {
                    let blocks = try matcher.match(query: query, train: twins, bucketOffsets: offsets, buckets: buckets,
                                                   trainGroups: g)
                    let single = try matcher.match(query: query, train: twins, bucketOffsets: offsets, buckets: buckets,
                                                   trainGroups: g, trainMask: everything)
                    #expect(blocks == single)
                    #expect(!blocks.isEmpty)
                }
            }
        }
    }

    @Test func badDescriptorBuffersAreRejected() throws {
        #expect(throws: VisionError.self) { try DescriptorMatcher().match(query: [1, 2, 3], train: []) }
        #expect(try DescriptorMatcher().match(query: [], train: descriptors(3, seed: 1)).isEmpty)
        #expect(try DescriptorMatcher().match(query: descriptors(3, seed: 1), train: []).isEmpty)
    }
}
