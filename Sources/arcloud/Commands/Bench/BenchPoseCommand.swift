import Benchmarks

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
        let bench = PoseBenchmark(threshold: args.threshold, confidence: args.confidence,
                                  loss: PoseBenchmark.RefinementLoss(rawValue: args.loss)!,  // the parser's words
                                  trials: args.trials, sizes: args.sizes, seed: args.seed, clock: args.clock)
        #if DEBUG
        print("note: debug build; build with -c release for meaningful timings")
        #endif
        print(PoseBenchmarkTable.heading(bench))
        bench.run { print(PoseBenchmarkTable.line($0, trials: bench.trials)) }
        print(PoseBenchmarkTable.footer(bench.clock))
        return 0
    }
}
