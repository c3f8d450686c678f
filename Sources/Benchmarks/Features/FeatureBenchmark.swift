import Baselines
import Vision

/// `arcloud bench features`: arcloud's ORB extractor (quadtree-distributed FAST, steered
/// BRIEF, reused pyramid buffers) against raw OpenCV (cv::ORB::create(n), created once, then
/// detectAndCompute) on the same synthetic textured 640x480 frames.
public struct FeatureBenchmark: Sendable {
    /// Frames timed per configuration; they cycle through at most 8 distinct textures.
    public var frames: Int
    public var clock: BenchClock
    /// Features asked of both extractors, one configuration each.
    public var featureCounts = [1000, 2000]
    /// The textures, seeds `seed`, `seed + 1`, …
    public let images: [GrayImage]

    /// Renders the textures (seeds from `seed`).
    public init(frames: Int, seed: Int, clock: BenchClock) throws {
        self.frames = frames
        self.clock = clock
        images = try (0 ..< min(frames, 8)).map { try SyntheticImages.texture(width: 640, height: 480, seed: UInt64(seed + $0)) }
    }

    /// Both extractors at one feature count.
    public struct Row: Sendable {
        public var featureCount: Int
        public var ours: ExtractorTally
        public var openCV: ExtractorTally
    }

    /// Runs every feature count and hands each row to `row` as soon as it is measured.
    public func run(row: (Row) -> Void) throws {
        for n in featureCounts {
            let ours = try ORBExtractor(options: ORBOptions(featureCount: n))
            let cv = try OpenCVBaseline.ORB(featureCount: n)
            var reuse = FeatureSet()
            try ours.extract(images[0], into: &reuse)  // warm up buffers
            _ = try cv.detectAndCompute(images[0])
            var a = ExtractorTally(), b = ExtractorTally()
            for i in 0 ..< frames {
                let img = images[i % images.count]
                var t0 = clock.nowMs()
                try ours.extract(img, into: &reuse)
                a.add(milliseconds: clock.nowMs() - t0, points: reuse.keypoints.map { SIMD2(Double($0.x), Double($0.y)) })
                t0 = clock.nowMs()
                let cvPoints = try cv.detectAndCompute(img)
                b.add(milliseconds: clock.nowMs() - t0, points: cvPoints.map { SIMD2(Double($0.x), Double($0.y)) })
            }
            row(Row(featureCount: n, ours: a, openCV: b))
        }
    }
}
