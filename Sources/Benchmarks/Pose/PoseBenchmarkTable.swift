import Foundation

/// The text `bench pose` prints: a heading with the setup, one line per configuration,
/// and what the columns mean.
public enum PoseBenchmarkTable {
    private static let header = ["N", "outl", "ours ms", "cv ms", "speedup", "ours rot°", "cv rot°", "ours t m", "cv t m",
                                 "ours ok", "cv ok"]
    private static let widths = [5, 5, 9, 9, 8, 10, 10, 9, 9, 8, 8]

    /// The setup line, a blank line, the column names and a rule.
    public static func heading(_ b: PoseBenchmark) -> String {
        ["arcloud bench pose: 640x480, f=500, 1 px noise, threshold \(fmt(b.threshold, 1)) px, confidence "
            + "\(b.confidence), \(b.trials) sets per row, \(b.clock.name) time",
         "", row(header), String(repeating: "-", count: widths.reduce(0, +) + widths.count - 1)].joined(separator: "\n")
    }

    /// One configuration: medians of time (ms), rotation error (°) and camera-centre error
    /// (m), the speed-up, and the solves within 1° out of `trials`.
    public static func line(_ r: PoseBenchmark.Row, trials: Int) -> String {
        row([String(r.n), "\(Int(r.outlierRatio * 100))%", fmt(r.ours.medianMilliseconds, 3),
             fmt(r.openCV.medianMilliseconds, 3), fmt(r.speedup, 1) + "x",
             fmt(r.ours.medianRotationDegrees, 4), fmt(r.openCV.medianRotationDegrees, 4),
             fmt(r.ours.medianTranslation, 4), fmt(r.openCV.medianTranslation, 4),
             "\(r.ours.withinOneDegree)/\(trials)", "\(r.openCV.withinOneDegree)/\(trials)"])
    }

    /// A blank line and the columns' definitions.
    public static func footer(_ clock: BenchClock) -> String {
        """

        times: median \(clock.name) time per solve (including the Swift wrapper); errors: median over all sets;
        ok: rotation error below 1 degree. speedup = OpenCV time / arcloud time.
        """
    }

    private static func row(_ cells: [String]) -> String {
        zip(cells, widths).map { c, w in String(repeating: " ", count: max(0, w - c.count)) + c }.joined(separator: " ")
    }

    private static func fmt(_ v: Double, _ digits: Int) -> String {
        v.isFinite ? String(format: "%.\(digits)f", v) : "-"
    }
}
