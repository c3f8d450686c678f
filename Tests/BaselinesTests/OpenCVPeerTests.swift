import Geometry
import Testing
import Vision
import Baselines
import TestSupport

@Suite struct OpenCVPeerTests {
    /// `cv::BFMatcher` refuses a train set of 2^18 rows or more (an assertion, thrown as
    /// `cv::Exception`); the peer must match against maps beyond that, with the right rows.
    @Test func localizesAgainstAMapLargerThanOneBruteForceTrainSet() throws {
        var rng = SplitMix(seed: 29)
        let scene = SyntheticScene(n: 120, rng: &rng)
        let mapCount = 300_000
        // The scene's points sit on both sides of the 2^18 boundary: a wrong row offset for
        // the second chunk would pair pixels with the wrong points.
        let slots = (0..<scene.world.count).map { $0 % 2 == 0 ? 1_000 + $0 : 280_000 + $0 }
        let descriptors = (0..<(mapCount * 32)).map { _ in UInt8.random(in: 0...255, using: &rng) }
        var positions = (0..<(mapCount * 3)).map { _ in Double.random(in: -20...20, using: &rng) }
        var queryDescriptors: [UInt8] = []
        for (i, slot) in slots.enumerated() {
            for k in 0..<3 { positions[3 * slot + k] = scene.world[i][k] }
            queryDescriptors += descriptors[(32 * slot)..<(32 * slot + 32)]
        }
        let query = try FeatureSet(keypoints: scene.pixels.map { Keypoint(x: Float($0.x), y: Float($0.y)) },
                                   descriptors: queryDescriptors)
        let peer = try OpenCVPeerLocalizer(descriptors: descriptors, positions: positions)
        let result = try peer.localize(query, camera: testCamera)
        let pose = try #require(result.pose)
        #expect(result.matches == scene.world.count)
        #expect(length(pose.translation - scene.truth.pose.translation) < 0.01)
    }
}
