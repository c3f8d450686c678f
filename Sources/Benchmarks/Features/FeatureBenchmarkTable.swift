import Foundation

/// The text `bench features` prints: a heading, one line per feature count, and what the
/// times are.
public enum FeatureBenchmarkTable {
    /// The setup line, a blank line and the column names over their rule.
    public static func heading(_ b: FeatureBenchmark) -> String {
        """
        arcloud bench features: 640x480 synthetic textured frames, \(b.frames) per row, \(b.clock.name) time

        features  ours ms  cv::ORB ms  speedup  ours count  cv count  ours cells  cv cells
        --------  -------  ----------  -------  ----------  --------  ----------  --------
        """
    }

    /// Median time per frame (ms), the speed-up (cv::ORB time over arcloud's), median
    /// feature counts and occupied cells of 48.
    public static func line(_ r: FeatureBenchmark.Row) -> String {
        let a = r.ours.medianMilliseconds, b = r.openCV.medianMilliseconds
        return String(format: "%8d  %7.2f  %10.2f  %6.2fx  %10d  %8d  %7d/48  %5d/48", r.featureCount, a, b, b / a,
                      r.ours.medianCount, r.openCV.medianCount, r.ours.medianOccupiedCells, r.openCV.medianOccupiedCells)
    }

    /// A blank line and the note on times.
    public static func footer(_ clock: BenchClock) -> String {
        "\ntimes: median \(clock.name) time per frame; speedup = cv::ORB time / arcloud time."
    }
}
