import Baselines
import Geometry
import Support
import Vision

/// `arcloud bench pose`: arcloud's robust pose solver (Lambda Twist P3P in LO-RANSAC,
/// robust LM) against OpenCV's (cv::solvePnPRansac with SOLVEPNP_AP3P, then
/// cv::solvePnPRefineLM on its inliers), on the same synthetic correspondence sets, with
/// the same inlier threshold, confidence and iteration cap.
public struct PoseBenchmark: Sendable {
    /// The loss of arcloud's final refinement; each robust one with scale threshold / 2.
    public enum RefinementLoss: String, Sendable, CaseIterable {
        /// The solver's own default (huber at 4 px).
        case solverDefault = "default"
        case huber, cauchy, trivial
    }

    /// The camera of every set: 640x480, f = 500 px, principal point at the centre.
    public var camera = CameraIntrinsics(width: 640, height: 480, fx: 500, fy: 500, cx: 320, cy: 240)
    /// RANSAC inlier threshold, pixels, both solvers.
    public var threshold: Double
    /// RANSAC confidence (0–1), both solvers.
    public var confidence: Double
    /// RANSAC iteration cap, both solvers.
    public var maxIterations = 10000
    public var loss: RefinementLoss
    /// Correspondence sets per configuration.
    public var trials: Int
    /// Correspondence counts, one configuration group each.
    public var sizes: [Int]
    /// Outlier shares run for every count.
    public var outlierRatios = [0.3, 0.5, 0.7]
    /// Seed of the synthetic sets.
    public var seed: Int
    public var clock: BenchClock

    public init(threshold: Double, confidence: Double, loss: RefinementLoss, trials: Int, sizes: [Int], seed: Int,
                clock: BenchClock) {
        self.threshold = threshold; self.confidence = confidence; self.loss = loss; self.trials = trials
        self.sizes = sizes; self.seed = seed; self.clock = clock
    }

    /// Both solvers on one configuration's sets.
    public struct Row: Sendable {
        /// Correspondences per set.
        public var n: Int
        /// Share of outliers (0–1).
        public var outlierRatio: Double
        public var ours: PoseSolverTally
        public var openCV: PoseSolverTally
        /// OpenCV's median time over arcloud's.
        public var speedup: Double { openCV.medianMilliseconds / ours.medianMilliseconds }
    }

    /// arcloud's estimator with this benchmark's options.
    public var estimator: AbsolutePoseEstimator {
        var ours = AbsolutePoseEstimator(options: RansacOptions(threshold: threshold, confidence: confidence,
                                                                maxIterations: maxIterations))
        switch loss {
        case .huber: ours.options.refinementLoss = .huber(scale: threshold / 2)
        case .cauchy: ours.options.refinementLoss = .cauchy(scale: threshold / 2)
        case .trivial: ours.options.refinementLoss = .trivial
        case .solverDefault: break
        }
        return ours
    }

    /// Runs every configuration (each size, then each outlier share) and hands each row to
    /// `row` as soon as it is measured. arcloud's solver is seeded with the set's index.
    public func run(row: (Row) -> Void) {
        let ours = estimator
        let camera = camera, threshold = threshold, confidence = confidence, maxIterations = maxIterations
        var rng = SplitMix64(seed: UInt64(seed) &* 0x9E37_79B9_7F4A_7C15 &+ 1)   // the sets this benchmark always drew
        for n in sizes {
            for outliers in outlierRatios {
                let sets = (0 ..< trials).map { _ in CorrespondenceSet(n: n, outlierRatio: outliers, camera: camera, rng: &rng) }
                // Warm up both (first-call costs, caches) on a set that is not timed.
                _ = try? ours.estimate(pixels: sets[0].pixels, worldPoints: sets[0].world, camera: camera)
                _ = try? OpenCVBaseline.solvePnPRansac(pixels: sets[0].pixels, worldPoints: sets[0].world, camera: camera,
                                                       threshold: threshold, confidence: confidence,
                                                       maxIterations: maxIterations)
                var a = PoseSolverTally(), b = PoseSolverTally()
                for (i, s) in sets.enumerated() {
                    var o = ours
                    o.options.seed = UInt64(i)
                    a.add(s, clock: clock, time: { try o.estimate(pixels: s.pixels, worldPoints: s.world, camera: camera) })
                    b.add(s, clock: clock, time: {
                        try OpenCVBaseline.solvePnPRansac(pixels: s.pixels, worldPoints: s.world, camera: camera,
                                                          threshold: threshold, confidence: confidence,
                                                          maxIterations: maxIterations)
                    })
                }
                row(Row(n: n, outlierRatio: outliers, ours: a, openCV: b))
            }
        }
    }
}
