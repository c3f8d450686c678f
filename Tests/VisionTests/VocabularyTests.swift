import Testing
import Vision
import TestSupport

/// `centres` random descriptors, and `perCentre` variants of each with `flips` random bits flipped.
func clusteredDescriptors(centres: Int, perCentre: Int, flips: Int, seed: UInt64)
    -> (centres: [[UInt8]], variants: [[UInt8]], labels: [Int]) {
    var rng = SplitMix(seed: seed)
    let cs = (0..<centres).map { _ in (0..<32).map { _ in UInt8.random(in: 0...255, using: &rng) } }
    var variants: [[UInt8]] = [], labels: [Int] = []
    for (i, c) in cs.enumerated() {
        for _ in 0..<perCentre {
            variants.append(flipBits(c, count: flips, using: &rng))
            labels.append(i)
        }
    }
    return (cs, variants, labels)
}

func flipBits(_ d: [UInt8], count: Int, using rng: inout SplitMix) -> [UInt8] {
    var v = d
    for bit in (0..<256).shuffled(using: &rng).prefix(count) { v[bit / 8] ^= UInt8(1 << (bit % 8)) }
    return v
}

@Suite("Vocabulary: hierarchical k-majority words")
struct VocabularyTests {
    @Test func descriptorsFallIntoTheWordOfTheirTrainingCluster() throws {
        let data = clusteredDescriptors(centres: 8, perCentre: 5, flips: 10, seed: 1)
        let vocab = try Vocabulary.train(descriptors: data.variants.flatMap { $0 },
                                         parameters: .init(branching: 8, levels: 2))
        #expect(vocab.wordCount == 8)
        let words = vocab.words(for: data.variants.flatMap { $0 })
        for cluster in 0..<8 {
            let w = Set(zip(words, data.labels).filter { $0.1 == cluster }.map(\.0))
            #expect(w.count == 1, "cluster \(cluster) spread over words \(w)")
        }
        #expect(Set(words).count == 8)
        // Unseen variants of a centre land in that centre's word.
        var rng = SplitMix(seed: 99)
        for (i, c) in data.centres.enumerated() {
            let fresh = flipBits(c, count: 12, using: &rng)
            let expected = words[data.labels.firstIndex(of: i)!]
            #expect(vocab.words(for: fresh) == [expected])
        }
    }

    @Test func trainingAndQuantisationAreDeterministic() throws {
        let data = clusteredDescriptors(centres: 40, perCentre: 30, flips: 20, seed: 2).variants.flatMap { $0 }
        let a = try Vocabulary.train(descriptors: data, parameters: .init(branching: 6, levels: 3, seed: 7))
        let b = try Vocabulary.train(descriptors: data, parameters: .init(branching: 6, levels: 3, seed: 7))
        #expect(a.serialized() == b.serialized())
        #expect(a.words(for: data) == b.words(for: data))
        #expect(a.wordCount > 36 && a.depth <= 3)
    }

    @Test func coarseNodesAreTheAncestorsOfTheWords() throws {
        let data = clusteredDescriptors(centres: 30, perCentre: 20, flips: 25, seed: 3).variants.flatMap { $0 }
        let vocab = try Vocabulary.train(descriptors: data, parameters: .init(branching: 5, levels: 4))
        for depth in 1...3 {
            let q = data.withUnsafeBytes { vocab.quantize($0, nodeDepth: depth) }
            for (w, n) in zip(q.words, q.nodes) {
                #expect(vocab.ancestor(ofWord: w, atDepth: depth) == n)
            }
            // Coarser depth: fewer distinct groups than words.
            #expect(Set(q.nodes).count < Set(q.words).count)
            // Descending only that deep finds the same nodes.
            #expect(data.withUnsafeBytes { vocab.nodes(for: $0, atDepth: depth) } == q.nodes)
        }
    }

    /// Multi-probe quantization: the plain descent's node first, then nodes whose path is
    /// at most the slack worse than the plain one; zero slack and one probe is the plain
    /// descent, more slack probes a superset.
    @Test func probesStartWithThePlainNodeAndGrowWithTheSlack() throws {
        let data = clusteredDescriptors(centres: 30, perCentre: 20, flips: 25, seed: 3).variants.flatMap { $0 }
        let vocab = try Vocabulary.train(descriptors: data, parameters: .init(branching: 5, levels: 4))
        let n = data.count / 32
        func lists(_ p: (offsets: [Int32], nodes: [UInt32])) -> [[UInt32]] {
            (0..<n).map { i in Array(p.nodes[Int(p.offsets[i])..<Int(p.offsets[i + 1])]) }
        }
        for depth in 1...3 {
            let plain = data.withUnsafeBytes { vocab.quantize($0, nodeDepth: depth) }.nodes
            let nodesAtDepth = Set((0..<vocab.wordCount).map { vocab.ancestor(ofWord: UInt32($0), atDepth: depth) })
            let one = lists(data.withUnsafeBytes { vocab.probes($0, nodeDepth: depth, maxProbes: 1, slackBits: 0) })
            #expect(one == plain.map { [$0] })
            let few = lists(data.withUnsafeBytes { vocab.probes($0, nodeDepth: depth, maxProbes: 4, slackBits: 12) })
            let many = lists(data.withUnsafeBytes { vocab.probes($0, nodeDepth: depth, maxProbes: 64, slackBits: 12) })
            let more = lists(data.withUnsafeBytes { vocab.probes($0, nodeDepth: depth, maxProbes: 64, slackBits: 40) })
            for i in 0..<n {
                #expect(few[i].first == plain[i] && few[i].count <= 4 && Set(few[i]).count == few[i].count)
                #expect(few[i].allSatisfy(nodesAtDepth.contains))
                #expect(Set(few[i]).isSubset(of: Set(many[i])))
                // (Unless the wider slack filled all 64 probes with closer nodes.)
                if more[i].count < 64 { #expect(Set(many[i]).isSubset(of: Set(more[i]))) }
            }
            if depth > 1 { #expect(more.map(\.count).reduce(0, +) > n, "no descriptor probed a second node") }
        }
    }

    /// A descriptor pushed across a cluster boundary by noise misses its word's node in the
    /// plain descent; probing finds it again for many of them.
    @Test func probesRecoverDescriptorsThatNoiseMovedAcrossABoundary() throws {
        let data = clusteredDescriptors(centres: 60, perCentre: 10, flips: 30, seed: 8)
        let train = data.variants.flatMap { $0 }
        let vocab = try Vocabulary.train(descriptors: train, parameters: .init(branching: 4, levels: 4))
        let trainedNodes = train.withUnsafeBytes { vocab.quantize($0, nodeDepth: 3) }.nodes
        var rng = SplitMix(seed: 9)
        let noisy = data.variants.flatMap { flipBits($0, count: 40, using: &rng) }
        let plain = noisy.withUnsafeBytes { vocab.quantize($0, nodeDepth: 3) }.nodes
        let probes = noisy.withUnsafeBytes { vocab.probes($0, nodeDepth: 3, maxProbes: 8, slackBits: 16) }
        var plainHits = 0, probeHits = 0
        for i in 0..<plain.count {
            let probed = probes.nodes[Int(probes.offsets[i])..<Int(probes.offsets[i + 1])]
            if plain[i] == trainedNodes[i] { plainHits += 1 }
            if probed.contains(trainedNodes[i]) { probeHits += 1 } else { #expect(plain[i] != trainedNodes[i]) }
        }
        #expect(plainHits < plain.count, "the noise moved no descriptor: the test shows nothing")
        #expect(probeHits - plainHits >= (plain.count - plainHits) / 3,
                "probing found \(probeHits - plainHits) of \(plain.count - plainHits) moved descriptors")
    }

    @Test func serialisationRoundTrips() throws {
        let data = clusteredDescriptors(centres: 25, perCentre: 12, flips: 30, seed: 4).variants.flatMap { $0 }
        let vocab = try Vocabulary.train(descriptors: data, parameters: .adaptive(descriptorCount: 300))
        let bytes = vocab.serialized()
        let copy = try Vocabulary(serialized: bytes)
        #expect(copy.serialized() == bytes)
        #expect(copy.wordCount == vocab.wordCount && copy.nodeCount == vocab.nodeCount)
        #expect(copy.parameters == vocab.parameters)
        var rng = SplitMix(seed: 5)
        let queries = (0..<32 * 500).map { _ in UInt8.random(in: 0...255, using: &rng) }
        #expect(copy.words(for: queries) == vocab.words(for: queries))
    }

    @Test func damagedBytesAreRejectedNotTrusted() throws {
        let data = clusteredDescriptors(centres: 10, perCentre: 10, flips: 20, seed: 6).variants.flatMap { $0 }
        let bytes = try Vocabulary.train(descriptors: data, parameters: .init(branching: 4, levels: 3)).serialized()
        #expect(throws: VocabularyError.corrupt) { try Vocabulary(serialized: []) }
        #expect(throws: VocabularyError.corrupt) { try Vocabulary(serialized: Array(bytes.dropLast(5))) }
        var badMagic = bytes; badMagic[0] ^= 0xFF
        #expect(throws: VocabularyError.corrupt) { try Vocabulary(serialized: badMagic) }
        // Point the root's children at itself: a cycle must be refused.
        var cycle = bytes
        let header = 8 + 4 + 12 + 8 + 4 + 4
        for i in 0..<4 { cycle[header + i] = 0 }
        #expect(throws: VocabularyError.corrupt) { try Vocabulary(serialized: cycle) }
        var rng = SplitMix(seed: 8)
        #expect(throws: VocabularyError.corrupt) {
            try Vocabulary(serialized: (0..<bytes.count).map { _ in UInt8.random(in: 0...255, using: &rng) })
        }
    }

    @Test func badTrainingInputIsAUsageError() {
        #expect(throws: VocabularyError.self) { try Vocabulary.train(descriptors: []) }
        #expect(throws: VocabularyError.self) { try Vocabulary.train(descriptors: [1, 2, 3]) }
        #expect(throws: VocabularyError.self) {
            try Vocabulary.train(descriptors: [UInt8](repeating: 1, count: 64), parameters: .init(branching: 1))
        }
    }

    @Test func identicalDescriptorsMakeASingleWord() throws {
        let vocab = try Vocabulary.train(descriptors: [UInt8](repeating: 0xA5, count: 32 * 50))
        #expect(vocab.wordCount == 1)
        #expect(vocab.words(for: [UInt8](repeating: 0, count: 32)) == [0])
    }
}
