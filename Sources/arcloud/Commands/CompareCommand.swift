import Foundation
import VPS

struct CompareCommand: Command {
    static let name = "compare"
    static let summary = "What changed per frame between two localize runs on the same session"
    static let help = """
        USAGE: arcloud compare <run-dir-A> <run-dir-B> [--max-regressions N]
                               [--threshold-cm C] [--threshold-deg D]

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
        then a summary line (counts, localized A → B, share within (5 cm, 2°) A → B).
        Exits 1 when the regressions are more than --max-regressions, 0 otherwise.

        OPTIONS:
          --max-regressions N   Regressions allowed before exiting 1 (default 0)
          --threshold-cm C      Translation change that counts, in cm (default 5)
          --threshold-deg D     Rotation change that counts, in degrees (default 2)

        EXAMPLE:
          arcloud compare out/walk-map-v1 out/walk-map-v2 --max-regressions 2
        """
    static let options: Set<String> = ["max-regressions", "threshold-cm", "threshold-deg"]
    static let switches: Set<String> = []

    static func run(_ args: Arguments) async throws -> Int32 {
        try args.noExtraPositionals(beyond: 2)
        let a = try args.positional(0, "run-dir-A"), b = try args.positional(1, "run-dir-B")
        let maxRegressions = try args.int("max-regressions", default: 0, range: 0...Int.max)
        let cm = try args.double("threshold-cm", default: 5), deg = try args.double("threshold-deg", default: 2)
        guard cm >= 0, deg >= 0 else { throw UsageError("--threshold-cm and --threshold-deg must not be negative") }
        let runA = try RunResults.load(from: URL(fileURLWithPath: a))
        let runB = try RunResults.load(from: URL(fileURLWithPath: b))
        let comparison = RunComparison(runA, runB, threshold: .init(metres: cm / 100, degrees: deg))
        guard comparison.common > 0 else {
            throw CommandFailure("\(a) and \(b) share no frame id: they are not runs on the same session")
        }
        for line in comparison.frameLines { print(line) }
        print("compare \(a) → \(b): \(comparison.summaryLine)")
        if comparison.regressions > maxRegressions {
            FileHandle.standardError.write(Data("compare: \(comparison.regressions) regressions, more than --max-regressions \(maxRegressions)\n".utf8))
            return 1
        }
        return 0
    }
}
