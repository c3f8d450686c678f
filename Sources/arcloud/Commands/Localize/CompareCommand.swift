import Foundation
import Evaluation

struct CompareCommand: Command {
    static let name = "compare"
    static let summary = "What changed per frame between two localize runs on the same session"
    static let overview = """
        USAGE: arcloud compare <run-dir-A> <run-dir-B> [--max-regressions N]
                               [--threshold-cm C | --threshold-percent P] [--threshold-deg D]

        Reads results.jsonl of two `arcloud localize` output folders (say, the same
        session against two map versions, or two builds), matches frames by id and prints
        one line per frame that changed from A to B:
          newly lost    localized in A, not in B                      (a regression)
          newly found   not localized in A, localized in B
          worse         error against ground truth grew by more than the threshold
                        in translation or rotation                    (a regression)
          better        error shrank by more than the threshold
          moved         no ground truth: the pose moved between runs by more than the
                        threshold (direction unknown: not a regression)
        then a summary line (counts, localized A → B, share within run A's primary
        threshold A → B).

        Thresholds speak the map's units, as `localize` does: by default both the change
        threshold and the primary one are run A's primary threshold from its summary.json,
        (5 cm, 2°) on a metric map, (2 % of scene scale, 2°) on a map in unknown units (a
        COLMAP model), where errors are printed as shares of the scene scale. Runs scored in
        different units are refused. Exits 1 when the regressions are more than
        --max-regressions, 0 otherwise.
        """

    static let epilogue = """
        EXAMPLE:
          arcloud compare out/walk-map-v1 out/walk-map-v2 --max-regressions 2
        """

    struct Options: CommandArguments {
        let runA = Positional("run-dir-A")
        let runB = Positional("run-dir-B")
        let maxRegressions = Option("max-regressions", .integer(in: 0...Int.max).placeholder("N"), default: 0,
                                    help: "Regressions allowed before exiting 1")
        let thresholdCm = Option("threshold-cm", .number(atLeast: 0).placeholder("C"),
                                 help: "Translation change that counts, in cm (metric maps only)",
                                 defaultText: "run A's primary threshold, 5")
        let thresholdPercent = Option("threshold-percent", .number(atLeast: 0).placeholder("P"),
                                      help: "Translation change that counts, in % of the scene scale (maps in unknown "
                                          + "units only)", defaultText: "run A's, 2")
        let thresholdDeg = Option("threshold-deg", .number(atLeast: 0).placeholder("D"),
                                  help: "Rotation change that counts, in degrees", defaultText: "run A's, 2")
    }

    static func run(_ args: ParsedArguments<Options>) async throws -> Int32 {
        let a = args.runA, b = args.runB
        let urlA = URL(fileURLWithPath: a), urlB = URL(fileURLWithPath: b)
        let runA = try RunResults.load(from: urlA), runB = try RunResults.load(from: urlB)
        let primary = try RunComparison.primaryThreshold(a, try RunResults.summary(in: urlA), b, try RunResults.summary(in: urlB))
        let threshold: ErrorThreshold
        do {
            threshold = try RunComparison.changeThreshold(primary: primary, centimetres: args.thresholdCm,
                                                          percent: args.thresholdPercent, degrees: args.thresholdDeg)
        } catch { throw UsageError(error.description) }
        let comparison = RunComparison(runA, runB, threshold: threshold, primary: primary)
        guard comparison.common > 0 else {
            throw CommandFailure("\(a) and \(b) share no frame id: they are not runs on the same session")
        }
        for line in comparison.frameLines { print(line) }
        print("compare \(a) → \(b): \(comparison.summaryLine)")
        if comparison.regressions > args.maxRegressions {
            FileHandle.standardError.write(Data(("compare: \(comparison.regressions) regressions, more than "
                                                 + "--max-regressions \(args.maxRegressions)\n").utf8))
            return 1
        }
        return 0
    }
}
