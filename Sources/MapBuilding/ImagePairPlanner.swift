import Foundation
import Geometry
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
struct ImagePairPlanner: Sendable {
    var maxViewAngleDegrees: Double
    var partnersPerKeyframe: Int
    /// Descriptors per keyframe used to train the pairing vocabulary.
    var samplePerKeyframe = 400

    struct Pair: Sendable, Hashable {
        var a: Int
        var b: Int
        /// tf-idf cosine of the two bags of words (0…1).
        var similarity: Double
    }

    /// Pairs ordered by (a, b); and each keyframe's candidates ranked best first.
    func pairs(descriptors: [[UInt8]], poses: [Pose]) throws -> (pairs: [Pair], ranked: [[Pair]]) {
        let n = poses.count
        let similarity = try self.similarity(descriptors)
        let axes = poses.map { $0.rotation.rotate(SIMD3(0, 0, 1)) }
        let cosMax = cos(maxViewAngleDegrees * .pi / 180)
        var ranked = [[Pair]](repeating: [], count: n)
        for i in 0..<n {
            for j in (i + 1)..<max(i + 1, n) {
                // Two photos from one spot cannot triangulate anything.
                guard dot(axes[i], axes[j]) >= cosMax, poses[i].center != poses[j].center else { continue }
                let p = Pair(a: i, b: j, similarity: similarity[i][j])
                ranked[i].append(p)
                ranked[j].append(p)
            }
        }
        for i in 0..<n { ranked[i].sort { ($0.similarity, -$0.a, -$0.b) > ($1.similarity, -$1.a, -$1.b) } }
        var chosen = Set<Pair>()
        for i in 0..<n { for p in ranked[i].prefix(partnersPerKeyframe) { chosen.insert(p) } }
        return (chosen.sorted { ($0.a, $0.b) < ($1.a, $1.b) }, ranked)
    }

    /// Symmetric tf-idf cosine similarity of every two keyframes.
    func similarity(_ descriptors: [[UInt8]]) throws -> [[Double]] {
        let n = descriptors.count
        var sample: [UInt8] = []
        for d in descriptors {
            let count = d.count / 32
            let step = max(1, count / samplePerKeyframe)
            for f in stride(from: 0, to: count, by: step) { sample += d[32 * f..<32 * f + 32] }
        }
        var similarity = [[Double]](repeating: [Double](repeating: 0, count: n), count: n)
        guard !sample.isEmpty else { return similarity }
        var parameters = Vocabulary.Parameters.adaptive(descriptorCount: sample.count / 32, pointsPerWord: 4)
        parameters.levels = min(parameters.levels, 4)
        let vocabulary = try Vocabulary.train(descriptors: sample, parameters: parameters)
        let words = descriptors.map { vocabulary.words(for: $0) }
        var frequency = [Int](repeating: 0, count: vocabulary.wordCount)
        for w in words { for u in Set(w) { frequency[Int(u)] += 1 } }
        // A word in every keyframe says nothing about which two overlap.
        let idf = frequency.map { $0 == 0 ? 0 : log(Double(n) / Double($0)) }
        let vectors: [[UInt32: Double]] = words.map { w in
            var v: [UInt32: Double] = [:]
            for u in w { v[u, default: 0] += idf[Int(u)] }
            let norm = v.values.reduce(0) { $0 + $1 * $1 }.squareRoot()
            return norm > 0 ? v.mapValues { $0 / norm } : v
        }
        // Inverted file: word → (keyframe, weight).
        var postings = [[(Int, Double)]](repeating: [], count: vocabulary.wordCount)
        for (k, v) in vectors.enumerated() { for (u, x) in v where x > 0 { postings[Int(u)].append((k, x)) } }
        for list in postings {
            for (x, (i, wi)) in list.enumerated() {
                for (j, wj) in list[(x + 1)...] {
                    similarity[i][j] += wi * wj
                    similarity[j][i] += wi * wj
                }
            }
        }
        return similarity
    }
}
