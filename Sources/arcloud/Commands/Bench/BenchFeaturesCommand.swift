import Benchmarks

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
        #if DEBUG
        print("note: debug build; build with -c release for meaningful timings")
        #endif
        let bench = try FeatureBenchmark(frames: args.frames, seed: args.seed, clock: args.clock)
        print(FeatureBenchmarkTable.heading(bench))
        try bench.run { print(FeatureBenchmarkTable.line($0)) }
        print(FeatureBenchmarkTable.footer(bench.clock))
        return 0
    }
}
