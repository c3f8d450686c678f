import Foundation
import VPS

struct LocalizeCommand: Command {
    static let name = "localize"
    static let summary = "Localize every frame of a recorded session against a map (batch, all cores)"
    static let help = """
        USAGE: arcloud localize --map <file.vpsmap> <session dir> [--mode single-shot|tracking]
                                [--out <dir>] [--workers N] [--features N] [--no-gravity]

        Localizes every frame of a recorded session with the embedded localizer, on all
        cores, and writes into the output folder:
          results.jsonl     one JSON object per frame (status, pose, section, inliers, error, timings)
          trajectory.tum    the estimated trajectory (TUM format: evo reads it)
          groundtruth.tum   the session's ground truth, when it has one
          summary.json      success rate, errors against ground truth, ATE, speed, latency
          report.html       self-contained report: recall curve, errors over time with thresholds,
                            top-down trajectory over the map, worst frames with their inlier
                            matches, latency, sortable per-frame table
        The summary also prints to standard output.

        OPTIONS:
          --map <file>       The map (.vpsmap) to localize against (required)
          --mode <mode>      single-shot (each frame alone, default) or tracking (previous
                             result + device odometry as a prior, single-shot fallback)
          --out <dir>        Output folder (default: out/<session name>)
          --workers <N>      Worker threads (default: all cores)
          --features <N>     ORB features per frame (default: 1000)
          --no-gravity       Localize from the images alone. By default each frame's gravity
                             (from its gravity-aligned odometry) goes with it, as a phone SDK
                             sends it: pose hypotheses then need two matches instead of three

        EXAMPLE:
          arcloud localize --map Maps/gallery.vpsmap Datasets/gallery-query-walk
        """
    static let options: Set<String> = ["map", "mode", "out", "workers", "features"]
    static let switches: Set<String> = ["no-gravity"]

    static func run(_ args: Arguments) async throws -> Int32 {
        let mapPath = try args.require("map")
        let sessionPath = try args.positional(0, "session dir")
        try args.noExtraPositionals(beyond: 1)
        guard let mode = LocalizationMode(rawValue: try args.choice("mode", LocalizationMode.allCases.map(\.rawValue),
                                                                    default: LocalizationMode.singleShot.rawValue)) else {
            throw UsageError("bad --mode")
        }
        let workers = try args.positiveInt("workers", default: ProcessInfo.processInfo.activeProcessorCount, max: 256)
        var options = LocalizerOptions()
        options.orb.featureCount = try args.int("features", default: options.orb.featureCount, range: 100...20000)

        let sessionURL = URL(fileURLWithPath: sessionPath)
        let session = try RecordedSession.load(from: sessionURL)
        // A session no frame of which can localize is a failure, not an empty success.
        if let problem = session.camera.problem {
            throw CommandFailure("\(sessionPath): the session's camera is invalid: \(problem)")
        }
        if session.frames.isEmpty { throw CommandFailure("\(sessionPath): the session has no frames") }
        let out = URL(fileURLWithPath: args.value("out") ?? "out/\(session.name)")
        try OutputLocation.prepareFolder(out.path, for: "--out")
        let map = try VPSMap.load(from: mapPath)
        let localizer = try Localizer(map: map, options: options)

        let progress = ProgressReporter(label: "localize \(session.name)", total: session.frames.count)
        let batch = BatchLocalizer(localizer: localizer, mode: mode, workers: workers, useGravity: !args.has("no-gravity"))
        let sessionFolder = sessionURL.hasDirectoryPath || sessionURL.pathExtension != "json"
            ? sessionURL : sessionURL.deletingLastPathComponent()
        let (outcomes, seconds) = try batch.run(session, in: sessionFolder) { progress.update($0) }
        let summary = AccuracySummary(outcomes: outcomes, wallSeconds: seconds)
        let report = BatchReport(session: session, in: sessionFolder, map: map, mode: mode.rawValue,
                                 outcomes: outcomes, summary: summary)
        try report.write(to: out)
        print("session \(session.name) against map \(map.metadata.name), mode \(mode.rawValue), \(workers) workers")
        print(summary.text)
        print("wrote \(out.path)/{\(BatchReport.File.results),\(BatchReport.File.trajectory),\(BatchReport.File.summary),\(BatchReport.File.report)}")
        return 0
    }
}
