import Foundation
import Vision
import Baselines
import Support

struct BenchFeaturesCommand: Command {
    static let name = "bench features"
    static let summary = "Time ORB extraction per 640x480 frame against raw cv::ORB"
    static let overview = """
        USAGE: arcloud bench features [--frames <n>] [--seed <n>] [--clock wall|cpu]

        Extracts ORB features from synthetic textured 640x480 frames (shapes of many grey
        levels, fine detail and sensor noise) at 1000 and 2000 features, with arcloud's
        extractor (quadtree-distributed FAST, steered BRIEF, reused pyramid buffers) and
        with raw OpenCV (cv::ORB::create(n) then detectAndCompute, created once) in the
        same run. Prints the median time per frame, the feature count, and how many of
        the 48 cells of an 8x6 grid (80 px) received features, for each. Build in release
        for real figures:
          swift build -c release && .build/release/arcloud bench features
        """

    struct Options: CommandArguments {
        let frames = Option("frames", .integer(in: 1...10_000), default: 30,
                            help: "Frames per configuration (different textures)")
        let seed = Option("seed", .integer(in: 0...Int.max), default: 1, help: "Seed of the first synthetic frame")
        let clock = BenchClock.option(threads: "all threads: OpenCV runs resize/blur on worker threads")
    }

    static func run(_ args: ParsedArguments<Options>) async throws -> Int32 {
        let frames = args.frames
        let seed = args.seed
        let clock = args.clock
        #if DEBUG
        print("note: debug build; build with -c release for meaningful timings")
        #endif
        let images = try (0 ..< min(frames, 8)).map {
            try SyntheticImages.texture(width: 640, height: 480, seed: UInt64(seed + $0))
        }
        print("arcloud bench features: 640x480 synthetic textured frames, \(frames) per row, \(clock.name) time")
        print("")
        print("features  ours ms  cv::ORB ms  speedup  ours count  cv count  ours cells  cv cells")
        print("--------  -------  ----------  -------  ----------  --------  ----------  --------")
        for n in [1000, 2000] {
            let ours = try ORBExtractor(options: ORBOptions(featureCount: n))
            let cv = try OpenCVBaseline.ORB(featureCount: n)
            var reuse = FeatureSet()
            try ours.extract(images[0], into: &reuse)  // warm up buffers
            _ = try cv.detectAndCompute(images[0])
            var tOurs: [Double] = [], tCV: [Double] = [], nOurs: [Int] = [], nCV: [Int] = []
            var cells: [Int] = [], cvCells: [Int] = []
            for i in 0 ..< frames {
                let img = images[i % images.count]
                var t0 = clock.nowMs()
                try ours.extract(img, into: &reuse)
                tOurs.append(clock.nowMs() - t0)
                nOurs.append(reuse.count)
                cells.append(occupiedCells(reuse.keypoints.map { SIMD2(Double($0.x), Double($0.y)) }))
                t0 = clock.nowMs()
                let cvPoints = try cv.detectAndCompute(img)
                tCV.append(clock.nowMs() - t0)
                nCV.append(cvPoints.count)
                cvCells.append(occupiedCells(cvPoints.map { SIMD2(Double($0.x), Double($0.y)) }))
            }
            let a = median(tOurs), b = median(tCV)
            print(String(format: "%8d  %7.2f  %10.2f  %6.2fx  %10d  %8d  %7d/48  %5d/48", n, a, b, b / a,
                         Int(median(nOurs.map(Double.init))), Int(median(nCV.map(Double.init))),
                         Int(median(cells.map(Double.init))), Int(median(cvCells.map(Double.init)))))
        }
        print("")
        print("times: median \(clock.name) time per frame; speedup = cv::ORB time / arcloud time.")
        return 0
    }

    /// Cells of the 8x6 grid of 80-px squares that hold at least one point.
    private static func occupiedCells(_ points: [SIMD2<Double>]) -> Int {
        Set(points.map { min(5, max(0, Int($0.y) / 80)) * 8 + min(7, max(0, Int($0.x) / 80)) }).count
    }

    private static func median(_ v: [Double]) -> Double { Statistics.median(v) ?? .nan }
}
