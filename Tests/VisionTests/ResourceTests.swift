import Testing
import Vision

/// Repeated calls must not grow the process: the C++ side owns nothing past a call except
/// the extractor's reusable buffers, which stop growing after the first frame.
@Suite(.serialized) struct ResourceTests {
    @Test func repeatedDecodeExtractMatchAndSolveKeepMemoryFlat() throws {
        let frame = try SyntheticImages.texture(width: 640, height: 480, seed: 5)
        let jpg = try SyntheticImages.encode(frame, as: .jpeg)
        let orb = try ORBExtractor()
        var rng = SplitMix(seed: 1)
        let scene = SyntheticScene(n: 300, outlierRatio: 0.5, noise: 1, rng: &rng)
        func round() throws {
            let img = try GrayImage(decoding: jpg)
            let f = try orb.extract(img)
            _ = try DescriptorMatcher().match(query: f.descriptors, train: f.descriptors)
            _ = try AbsolutePoseEstimator().estimate(pixels: scene.pixels, worldPoints: scene.world, camera: testCamera)
            _ = try? GrayImage(decoding: Array(jpg.prefix(jpg.count / 2)))  // error path too
            _ = try ORBExtractor(options: ORBOptions(featureCount: 50))  // create/destroy
        }
        for _ in 0 ..< 20 { try round() }  // warm up caches and allocator pools
        let before = residentBytes()
        for _ in 0 ..< 120 { try round() }
        let after = residentBytes()
        // A leak of one decoded frame per round would be 120 × 300 kB = 36 MB.
        #expect(after - before < 8 << 20, "RSS grew by \((after - before) >> 10) kB")
    }
}
