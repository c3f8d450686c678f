import Foundation
import Geometry
import Vision
import Baselines
import Support

struct BenchPoseCommand: Command {
    static let name = "bench pose"
    static let summary = "Time the robust pose solver against OpenCV solvePnPRansac (AP3P) + solvePnPRefineLM"
    static let overview = """
        USAGE: arcloud bench pose [--trials <n>] [--threshold <px>] [--confidence <p>] [--seed <n>]
                                  [--loss huber|cauchy|trivial] [--sizes <n,n,..>] [--clock wall|cpu]

        Builds synthetic 2D–3D correspondence sets for a 640x480 camera with f = 500 px
        (points 2–10 m in front, 1 px Gaussian pixel noise, outliers uniform over the
        image) for N = 100 / 500 / 1000 and 30 / 50 / 70 % outliers, and solves the same
        sets in the same run with arcloud's solver (Lambda Twist P3P in LO-RANSAC, robust
        LM) and with OpenCV (cv::solvePnPRansac with SOLVEPNP_AP3P, then
        cv::solvePnPRefineLM on its inliers). Both get the same inlier threshold and
        confidence and up to 10000 iterations.

        Prints, per configuration: median time per solve, median rotation error (degrees)
        and camera-centre error (metres) for each solver, how many solves were within
        1 degree, and the speed ratio OpenCV / arcloud. Build in release for real figures:
          swift build -c release && .build/release/arcloud bench pose
        """

    struct Options: CommandArguments {
        let trials = Option("trials", .integer(in: 1...100_000), default: 50, help: "Correspondence sets per configuration")
        let threshold = Option("threshold", .number(greaterThan: 0).placeholder("<px>"), default: 4,
                               help: "RANSAC inlier threshold in pixels, both solvers")
        let confidence = Option("confidence", .number(greaterThan: 0, lessThan: 1).placeholder("<p>"), default: 0.999,
                                help: "RANSAC confidence, both solvers")
        let seed = Option("seed", .integer(in: 0...Int.max), default: 1, help: "Seed of the synthetic data")
        let loss = Option("loss", .oneOf(["default", "huber", "cauchy", "trivial"]).placeholder("<kind>"), default: "default",
                          help: "Loss of arcloud's final refinement: huber, cauchy or trivial, scale = threshold / 2",
                          defaultText: "the solver's default, huber at 4 px")
        let sizes = Option("sizes", .list(of: .integer(in: 4...1_000_000)), default: [100, 500, 1000],
                           help: "Correspondence counts to run")
        let clock = BenchClock.option(threads: "all threads")
    }

    static func run(_ args: ParsedArguments<Options>) async throws -> Int32 {
        let trials = args.trials
        let threshold = args.threshold
        let confidence = args.confidence
        let seed = args.seed
        let sizes = args.sizes
        let clock = args.clock
        let camera = CameraIntrinsics(width: 640, height: 480, fx: 500, fy: 500, cx: 320, cy: 240)
        var ours = AbsolutePoseEstimator(options: RansacOptions(threshold: threshold, confidence: confidence,
                                                                maxIterations: 10000))
        switch args.loss {
        case "huber": ours.options.refinementLoss = .huber(scale: threshold / 2)
        case "cauchy": ours.options.refinementLoss = .cauchy(scale: threshold / 2)
        case "trivial": ours.options.refinementLoss = .trivial
        default: break
        }
        #if DEBUG
        print("note: debug build; build with -c release for meaningful timings")
        #endif
        print("arcloud bench pose: 640x480, f=500, 1 px noise, threshold \(fmt(threshold, 1)) px, confidence \(confidence), \(trials) sets per row, \(clock.name) time")
        print("")
        let header = ["N", "outl", "ours ms", "cv ms", "speedup", "ours rot°", "cv rot°", "ours t m", "cv t m", "ours ok", "cv ok"]
        let widths = [5, 5, 9, 9, 8, 10, 10, 9, 9, 8, 8]
        print(row(header, widths))
        print(String(repeating: "-", count: widths.reduce(0, +) + widths.count - 1))

        var rng = SplitMix64(seed: UInt64(seed) &* 0x9E37_79B9_7F4A_7C15 &+ 1)   // the sets this benchmark always drew
        for n in sizes {
            for outliers in [0.3, 0.5, 0.7] {
                let sets = (0 ..< trials).map { _ in CorrespondenceSet(n: n, outlierRatio: outliers, camera: camera, rng: &rng) }
                // Warm up both (first-call costs, caches) on a set that is not timed.
                _ = try? ours.estimate(pixels: sets[0].pixels, worldPoints: sets[0].world, camera: camera)
                _ = try? OpenCVBaseline.solvePnPRansac(pixels: sets[0].pixels, worldPoints: sets[0].world, camera: camera,
                                                       threshold: threshold, confidence: confidence, maxIterations: 10000)
                var a = SolverStats(), b = SolverStats()
                for (i, s) in sets.enumerated() {
                    var o = ours
                    o.options.seed = UInt64(i)
                    a.add(s, clock: clock, time: { try o.estimate(pixels: s.pixels, worldPoints: s.world, camera: camera) })
                    b.add(s, clock: clock, time: {
                        try OpenCVBaseline.solvePnPRansac(pixels: s.pixels, worldPoints: s.world, camera: camera,
                                                          threshold: threshold, confidence: confidence, maxIterations: 10000)
                    })
                }
                let speedup = b.medianMs / a.medianMs
                print(row([String(n), "\(Int(outliers * 100))%", fmt(a.medianMs, 3), fmt(b.medianMs, 3), fmt(speedup, 1) + "x",
                           fmt(a.medianRot, 4), fmt(b.medianRot, 4), fmt(a.medianTrans, 4), fmt(b.medianTrans, 4),
                           "\(a.ok)/\(trials)", "\(b.ok)/\(trials)"], widths))
            }
        }
        print("")
        print("times: median \(clock.name) time per solve (including the Swift wrapper); errors: median over all sets;")
        print("ok: rotation error below 1 degree. speedup = OpenCV time / arcloud time.")
        return 0
    }

    private static func row(_ cells: [String], _ widths: [Int]) -> String {
        zip(cells, widths).map { c, w in String(repeating: " ", count: max(0, w - c.count)) + c }.joined(separator: " ")
    }
}

/// The clock the benchmarks time with: elapsed time, or CPU time of the whole process
/// (every thread, so OpenCV's worker threads count), which a busy machine disturbs less.
struct BenchClock: Sendable {
    let name: String
    private let id: clockid_t

    static let wall = BenchClock(name: "wall", id: CLOCK_MONOTONIC)
    static let cpu = BenchClock(name: "CPU", id: CLOCK_PROCESS_CPUTIME_ID)

    /// `--clock wall|cpu`, wall by default; `threads` says which threads CPU time covers.
    static func option(threads: String) -> Option<BenchClock> {
        let kinds = ["wall": wall, "cpu": cpu]
        let parser = ValueParser<BenchClock>(placeholder: "<kind>", describe: { $0.name.lowercased() }) { text in
            guard let clock = kinds[text] else { throw InvalidValue("must be one of wall|cpu") }
            return clock
        }
        return Option("clock", parser, default: wall,
                      help: "wall: elapsed time; cpu: CPU time of the process (\(threads)), steadier on a busy machine")
    }

    /// Milliseconds since an arbitrary origin.
    func nowMs() -> Double {
        var ts = timespec()
        clock_gettime(id, &ts)
        return Double(ts.tv_sec) * 1e3 + Double(ts.tv_nsec) * 1e-6
    }
}

func fmt(_ v: Double, _ digits: Int) -> String {
    v.isFinite ? String(format: "%.\(digits)f", v) : "-"
}

/// Per-solver timings and errors over the sets of one configuration.
private struct SolverStats {
    var times: [Double] = [], rot: [Double] = [], trans: [Double] = []
    var ok = 0

    mutating func add(_ s: CorrespondenceSet, clock: BenchClock, time solve: () throws -> PoseEstimate) {
        let start = clock.nowMs()
        let result = try? solve()
        times.append(clock.nowMs() - start)
        guard let r = result else {
            rot.append(180); trans.append(.infinity)
            return
        }
        let err = r.pose.error(to: s.truth)
        rot.append(err.rotationDegrees); trans.append(err.translation)
        if err.rotationDegrees < 1 { ok += 1 }
    }
    static func median(_ v: [Double]) -> Double { Statistics.median(v) ?? .nan }
    var medianMs: Double { Self.median(times) }
    var medianRot: Double { Self.median(rot) }
    var medianTrans: Double { Self.median(trans) }
}

/// n correspondences seen by a random camera: inliers with 1 px noise, outliers uniform.
private struct CorrespondenceSet {
    var truth: Pose
    var pixels: [SIMD2<Double>] = []
    var world: [SIMD3<Double>] = []

    init(n: Int, outlierRatio: Double, camera: CameraIntrinsics, rng: inout SplitMix64) {
        let q = Quaternion(x: rng.gaussian(), y: rng.gaussian(), z: rng.gaussian(), w: rng.gaussian()).normalized
        let centre = SIMD3(Double.random(in: -5 ... 5, using: &rng), Double.random(in: -5 ... 5, using: &rng),
                           Double.random(in: -5 ... 5, using: &rng))
        truth = Pose(rotation: q, translation: centre)  // T_map_camera
        let outliers = Int((Double(n) * outlierRatio).rounded())
        for i in 0 ..< n {
            let u = Double.random(in: 0 ..< Double(camera.width), using: &rng)
            let v = Double.random(in: 0 ..< Double(camera.height), using: &rng)
            let depth = Double.random(in: 2 ... 10, using: &rng)
            world.append(truth.apply(camera.ray(SIMD2(u, v)) * depth))
            if i % n < outliers {
                pixels.append(SIMD2(Double.random(in: 0 ..< Double(camera.width), using: &rng),
                                    Double.random(in: 0 ..< Double(camera.height), using: &rng)))
            } else {
                pixels.append(SIMD2(u + rng.gaussian(), v + rng.gaussian()))
            }
        }
        // Shuffle so outliers are not grouped.
        var order = Array(0 ..< n)
        order.shuffle(using: &rng)
        pixels = order.map { pixels[$0] }
        world = order.map { world[$0] }
    }
}
