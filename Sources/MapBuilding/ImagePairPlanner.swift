import Foundation
import Geometry
import Support
import Vision

/// Chooses the keyframe pairs worth matching from the images themselves, with no guess
/// about the scene's size or units.
///
/// Each keyframe's features are quantized with a small vocabulary trained on a sample of
/// all keyframes' descriptors; two keyframes are similar when their bags of words are
/// (tf-idf cosine). Each keyframe keeps its `partnersPerKeyframe` most similar partners
/// among those whose optical axes differ by at most `maxViewAngleDegrees`: wide
/// baselines pair up as long as the images share content, and a map of a handful of
/// photos pairs every viewable couple.
///
/// Only a keyframe's `maxCandidates` nearest viewable cameras (by centre, which needs no
/// unit) are scored: two photos that share content were taken near each other, and scoring
/// every pair grows with the square of the keyframes (with a dense similarity matrix, a
/// building of 13,740 keyframes had not finished this step after 25 minutes and 4.3 GB).
/// A map of up to `maxCandidates + 1` keyframes (every real-photo and shipped map) scores
/// every pair; a larger one scores a room's keyframes and its neighbours' many times over.
struct ImagePairPlanner: Sendable {
    var maxViewAngleDegrees: Double
    var partnersPerKeyframe: Int
    /// Descriptors per keyframe used to train the pairing vocabulary.
    var samplePerKeyframe = 400
    /// Nearest viewable cameras scored per keyframe: what one keyframe's scoring costs
    /// (its bag of words against this many), whatever the map's size.
    var maxCandidates = 1024

    struct Pair: Sendable, Hashable {
        var a: Int
        var b: Int
        /// tf-idf cosine of the two bags of words (0…1).
        var similarity: Double
    }

    /// A keyframe's bag of words: word ids ascending, tf-idf weights normalized to 1.
    struct BagOfWords: Sendable {
        var words: [UInt32] = []
        var weights: [Double] = []

        /// Cosine with the bag scattered into `dense` (weight by word id, 0 elsewhere):
        /// the products of shared words' weights, summed in word order.
        func dot(dense: [Double]) -> Double {
            var sum = 0.0
            for (u, w) in zip(words, weights) { sum += dense[Int(u)] * w }
            return sum
        }
    }

    /// Pairs ordered by (a, b); and each keyframe's best partners, best first (at most
    /// `partnersPerKeyframe`).
    func pairs(descriptors: [[UInt8]], poses: [Pose], threads: Int = 0) throws -> (pairs: [Pair], ranked: [[Pair]]) {
        let (bags, wordCount) = try self.bags(descriptors)
        let centres = poses.map(\.center)
        let axes = poses.map { $0.rotation.rotate(SIMD3(0, 0, 1)) }
        let cosMax = cos(maxViewAngleDegrees * .pi / 180)
        let (keep, limit) = (partnersPerKeyframe, maxCandidates)
        let ranked = try WorkerThreads.map(count: poses.count, threads: threads,
                                           makeState: { [Double](repeating: 0, count: wordCount) }) { dense, i in
            // Two photos from one spot cannot triangulate anything.
            var candidates = centres.indices.filter {
                $0 != i && dot(axes[i], axes[$0]) >= cosMax && centres[i] != centres[$0]
            }
            if candidates.count > limit {
                let distance = candidates.map { j in let d = centres[j] - centres[i]; return (d * d).sum() }
                candidates = Array(candidates.indices.sorted { (distance[$0], candidates[$0]) < (distance[$1], candidates[$1]) }
                    .prefix(limit).map { candidates[$0] })
            }
            for (u, w) in zip(bags[i].words, bags[i].weights) { dense[Int(u)] = w }
            defer { for u in bags[i].words { dense[Int(u)] = 0 } }
            let scored = candidates.map { j in Pair(a: min(i, j), b: max(i, j), similarity: bags[j].dot(dense: dense)) }
            return Array(scored.sorted { ($0.similarity, -$0.a, -$0.b) > ($1.similarity, -$1.a, -$1.b) }.prefix(keep))
        }
        var chosen = Set<Pair>()
        for list in ranked { chosen.formUnion(list) }
        return (chosen.sorted { ($0.a, $0.b) < ($1.a, $1.b) }, ranked)
    }

    /// Every keyframe's tf-idf bag of words over a vocabulary trained on a sample of all,
    /// and the vocabulary's word count.
    func bags(_ descriptors: [[UInt8]]) throws -> (bags: [BagOfWords], wordCount: Int) {
        let n = descriptors.count
        var sample: [UInt8] = []
        for d in descriptors {
            let count = d.count / 32
            let step = max(1, count / samplePerKeyframe)
            for f in stride(from: 0, to: count, by: step) { sample += d[32 * f..<32 * f + 32] }
        }
        guard !sample.isEmpty else { return ([BagOfWords](repeating: BagOfWords(), count: n), 0) }
        var parameters = Vocabulary.Parameters.adaptive(descriptorCount: sample.count / 32, pointsPerWord: 4)
        parameters.levels = min(parameters.levels, 4)
        let vocabulary = try Vocabulary.train(descriptors: sample, parameters: parameters)
        let words = descriptors.map { vocabulary.words(for: $0) }
        var frequency = [Int](repeating: 0, count: vocabulary.wordCount)
        for w in words { for u in Set(w) { frequency[Int(u)] += 1 } }
        // A word in every keyframe says nothing about which two overlap.
        let idf = frequency.map { $0 == 0 ? 0 : log(Double(n) / Double($0)) }
        return (words.map { w in
            var v: [UInt32: Double] = [:]
            for u in w { v[u, default: 0] += idf[Int(u)] }
            var bag = BagOfWords()
            bag.words = v.keys.filter { v[$0]! > 0 }.sorted()
            bag.weights = bag.words.map { v[$0]! }
            let norm = bag.weights.reduce(0) { $0 + $1 * $1 }.squareRoot()
            if norm > 0 { bag.weights = bag.weights.map { $0 / norm } }
            return bag
        }, vocabulary.wordCount)
    }
}
