import Testing
import Vision
import Baselines
import TestSupport

/// The core keeps per-thread scratch (pose, matching) and per-extractor buffers: running
/// many calls at once on the cooperative pool must give exactly the sequential results.
@Suite struct ConcurrencyTests {
    @Test func concurrentPoseSolvesMatchSequentialOnes() async throws {
        var rng = SplitMix(seed: 77)
        let scenes = (0 ..< 16).map { i in SyntheticScene(n: 100 + 50 * i, outlierRatio: 0.5, noise: 1, rng: &rng) }
        let estimator = AbsolutePoseEstimator()
        let sequential = try scenes.map {
            try estimator.estimate(pixels: $0.pixels, worldPoints: $0.world, camera: testCamera)
        }
        let concurrent = try await withThrowingTaskGroup(of: (Int, PoseEstimate).self) { group in
            for (i, s) in scenes.enumerated() {
                group.addTask { (i, try estimator.estimate(pixels: s.pixels, worldPoints: s.world, camera: testCamera)) }
            }
            var out = [PoseEstimate?](repeating: nil, count: scenes.count)
            for try await (i, e) in group { out[i] = e }
            return out.compactMap { $0 }
        }
        #expect(concurrent == sequential)
    }

    @Test func sharedAndSeparateExtractorsAgreeUnderConcurrency() async throws {
        let frames = try (0 ..< 6).map { try SyntheticImages.texture(width: 320, height: 240, seed: UInt64($0)) }
        let shared = try ORBExtractor(options: ORBOptions(featureCount: 300))
        let expected = try frames.map { try shared.extract($0) }
        let results = try await withThrowingTaskGroup(of: (Int, FeatureSet, FeatureSet).self) { group in
            for (i, f) in frames.enumerated() {
                group.addTask {
                    let own = try ORBExtractor(options: ORBOptions(featureCount: 300))
                    return (i, try shared.extract(f), try own.extract(f))
                }
            }
            var out: [(Int, FeatureSet, FeatureSet)] = []
            for try await r in group { out.append(r) }
            return out
        }
        for (i, viaShared, viaOwn) in results {
            #expect(viaShared == expected[i])
            #expect(viaOwn == expected[i])
            let m = try DescriptorMatcher(ratio: nil, mutual: true).match(query: viaOwn.descriptors, train: expected[i].descriptors)
            #expect(m.count == expected[i].count && m.allSatisfy { $0.distance == 0 })
        }
    }
}
