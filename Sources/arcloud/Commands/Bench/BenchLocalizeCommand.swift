import Benchmarks
import Foundation

struct BenchLocalizeCommand: Command {
    static let name = "bench localize"
    static let summary = "Benchmark the localizer against an OpenCV-only peer pipeline on the same frames"
    static let overview = """
        USAGE: arcloud bench localize --map <file.vpsmap> <session dir> [--frames N] [--features N]
                                      [--venue <file.vpsmap>]

        Runs, in one process on the same decoded frames and map, one thread each (OpenCV's own
        thread pool is set to one thread too); per frame the peer runs first and the others
        follow in an order that rotates from frame to frame (whatever runs right after the
        peer finds the caches cold):
          orb only        this project's ORB extraction alone (the floor of any localizer)
          arcloud         this project's localizer, single-shot (vocabulary matching, then
                          multi-probe matching for frames it cannot place, upright P2P
                          LO-RANSAC with the frame's gravity from its odometry, as a phone
                          SDK sends it, up to two guided passes over the local map, LM)
          arcloud+decode  the same, timed from the encoded image
          image only      the same localizer without gravity (P3P LO-RANSAC)
          opencv          the same ORB extraction, then cv::BFMatcher k-NN against every map
                          descriptor + ratio test + cv::solvePnPRansac (AP3P) +
                          cv::solvePnPRefineLM (the map's descriptors come from this
                          project's ORB, whose sampling pattern differs from cv::ORB's, so
                          the peer extracts with it too)
          arcloud venue   with --venue: the localizer on a venue that holds the map's
                          capture among others (`map merge`), against the map alone
        and prints success rates, recall at (5 cm, 2°), median errors, frames per second,
        median time per frame, the ratios, and arcloud's mean time per stage (its own clock:
        deblur, extract, retrieve, match, solve, refine, verify), with refine by step (the
        guided passes' candidates, match, solve) and verify by check (significance,
        uncertainty, coverage, rivals, gravity, inheritance). One frame runs first,
        untimed, through every pipeline and the motion-blur removal (plans and buffers made
        once per process). Build in release for meaningful figures:
          swift build -c release && .build/release/arcloud bench localize ...
        """

    struct Options: CommandArguments {
        let map = Option.required("map", .text.placeholder("<file>"), help: "The map to localize against")
        let session = Positional("session dir")
        let frames = Option("frames", .integer(in: 1...1_000_000).placeholder("<N>"),
                            help: "Use at most N frames of the session", defaultText: "all")
        let features = Option("features", .integer(in: 100...20000).placeholder("<N>"),
                              help: "ORB features per frame for both pipelines",
                              defaultText: "the localizer's, 1000; 3000 on a map of at most 5,000 points")
        let venue = Option("venue", .text.placeholder("<file>"), help: "A venue map holding --map's capture among others")
    }

    static func run(_ args: ParsedArguments<Options>) async throws -> Int32 {
        let bench = try LocalizeBenchmark(map: args.map, session: URL(fileURLWithPath: args.session),
                                          frameLimit: args.frames, features: args.features, venue: args.venue)
        print(bench.headline + "\n" + LocalizeBenchmarkTable.render(try bench.run(), frames: bench.frames))
        return 0
    }
}
