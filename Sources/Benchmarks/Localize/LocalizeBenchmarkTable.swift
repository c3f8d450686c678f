import Foundation
import Support
import VPSModel

/// The table `bench localize` prints after its headline: per pipeline the success rate,
/// recall at (5 cm, 2°), median errors, median time per frame and frames per second, then
/// the speed ratios against their targets and arcloud's mean time per stage (refine by step
/// and verify by check too).
public enum LocalizeBenchmarkTable {
    /// `runs` as `LocalizeBenchmark.run` returns them, over `frames`.
    public static func render(_ runs: [PipelineRun], frames: [RecordedSession.Frame]) -> String {
        var lines = ["pipeline         success  within(5cm,2°)  median err (cm / deg)   median ms/frame   frames/s"]
        for row in runs {
            var cols = row.name.padding(toLength: 16, withPad: " ", startingAt: 0)
            if row.poses.isEmpty {
                cols += "   -          -               -                 "
            } else {
                let errs = row.errors(against: frames)
                let within = errs.filter { $0.translation <= 0.05 && $0.rotationDegrees <= 2 }.count
                let mt = Statistics.median(errs.map(\.translation)).map { String(format: "%.2f", $0 * 100) } ?? "n/a"
                let mr = Statistics.median(errs.map(\.rotationDegrees)).map { String(format: "%.3f", $0) } ?? "n/a"
                cols += String(format: " %5.1f %%   %5.1f %%         ", 100 * Double(row.localized) / Double(frames.count),
                               100 * Double(within) / Double(frames.count))
                cols += "\(mt) / \(mr)".padding(toLength: 24, withPad: " ", startingAt: 0)
            }
            cols += String(format: "%8.2f        %8.1f", row.medianMilliseconds, row.framesPerSecond)
            lines.append(cols)
        }
        let mean = { (name: String) in runs.first { $0.name == name }?.meanMilliseconds ?? .nan }
        let (orb, ours, encoded, imageOnly, opencv) = (mean("orb only"), mean("arcloud"), mean("arcloud+decode"),
                                                       mean("image only"), mean("opencv"))
        lines.append(String(format: "speed-up arcloud / opencv:            %.1fx frames/s (target >= 20x)", opencv / ours))
        lines.append(String(format: "arcloud end-to-end / ORB alone:       %.2fx time per frame (target <= 1.3x)", ours / orb))
        lines.append(String(format: "arcloud+decode end-to-end / ORB alone: %.2fx time per frame", encoded / orb))
        lines.append(String(format: "image only / opencv:                  %.1fx frames/s; end to end %.2fx ORB alone",
                            opencv / imageOnly, imageOnly / orb))
        // Where arcloud's time goes, by the localizer's own clock (it times its stages apart
        // from the call's overhead): the share beyond ORB is what the 1.3x target bounds.
        let listed = { (parts: [(name: String, milliseconds: Double)]) in
            parts.map { "\($0.name) " + String(format: "%.2f", $0.milliseconds) }.joined(separator: ", ")
        }
        if let arcloud = runs.first(where: { $0.name == "arcloud" }), !arcloud.meanStages.isEmpty {
            lines.append("arcloud mean ms per stage:            " + listed(arcloud.meanStages.filter { $0.name != "decode" }))
            // The two stages beyond ORB that cost most, by step and by check.
            lines.append("arcloud mean ms in refine, by step:   " + listed(arcloud.meanGuidedSteps))
            lines.append("arcloud mean ms in verify, by check:  " + listed(arcloud.meanJudgingChecks))
        }
        if let venue = runs.first(where: { $0.name == "arcloud venue" }) {
            // Accepted and off by more than (25 cm, 5°): the figure a venue must keep at 0.
            let off = venue.errors(against: frames).filter { $0.translation > 0.25 || $0.rotationDegrees > 5 }.count
            lines.append(String(format: "arcloud on the venue / on the map alone: %.2fx time per frame (target <= 1.3x); "
                                + "%d accepted outside (25 cm, 5°)", venue.meanMilliseconds / ours, off))
        }
        return lines.joined(separator: "\n")
    }
}
