import Localization
import Support
import Formats
import Foundation
import Evaluation
import MapModel
import VPSModel
import RemoteLocalization
import Storage
import VPSClient

struct LocalizeCommand: Command {
    static let name = "localize"
    static let summary = "Localize every frame of a recorded session against a map (batch, all cores)"
    static let overview = """
        USAGE: arcloud localize --map <file.vpsmap> <session dir> [--mode single-shot|tracking]
                                [--out <dir>] [--workers N] [--features N] [--no-gravity] [--no-deblur]
                                [--min-recall R] [--near LAT,LON,ACCURACY|gps]
               arcloud localize --server <url> --token <token> --map <map id> <session dir>
                                [--concurrency N] [--mode ...] [--out <dir>] [--no-gravity]
                                [--min-recall R]

        Localizes every frame of a recorded session with the embedded localizer, on all
        cores, and writes into the output folder:
          results.jsonl     one JSON object per frame (id, image, status, pose, accuracy,
                            section, inliers, error, timings); accuracy holds the pose's
                            95 % error bounds: position (map units) and rotationDegrees;
                            on a georeferenced map also geoPose (OGC GeoPose: lat, lon,
                            h and the camera's orientation in east-north-up) and
                            geoAccuracy (metres, degrees)
          trajectory.tum    the estimated trajectory (TUM format, the frames' recorded
                            timestamps: `evo_ape tum <the dataset's groundtruth.txt>
                            trajectory.tum` associates them); not written when no frame
                            was localized (evo refuses an empty trajectory)
          poses.txt         one line per localized image, `name qw qx qy qz tx ty tz`,
                            world-to-camera (COLMAP convention): the format hloc and the
                            visual-localization benchmark use
          groundtruth.tum   the session's ground truth, when it has one
          trajectory.geojson  on a georeferenced map: the path and each frame with its
                            accuracy, for QGIS or geojson.io
          summary.json      success rate, errors against ground truth, ATE, the share of
                            localized frames within their claimed accuracy, speed, latency;
                            with GPS in the frames, the GeoPoses' distance from each reading
          report.html       self-contained report: recall curve, errors over time with thresholds,
                            top-down trajectory over the map, worst frames with their inlier
                            matches, latency, sortable per-frame table
        The summary also prints to standard output. Accuracy thresholds: (5 cm, 2°), (25 cm,
        5°), (1 m, 10°) on a metric map; on a map in unknown units (a COLMAP model) (2 %, 2°),
        (5 %, 5°), (10 %, 10°) of the scene scale (the median distance of the session's
        ground-truth cameras from the point nearest to their optical axes), errors in map units.

        With --server the frames go to the HTTP service (`arcloud serve`, or nginx in front
        of several replicas) instead, N requests at a time: the same outputs, the same poses
        on the same map. Transient failures (no answer, 502/503/504, 429) are retried with
        exponential backoff and jitter, up to 6 attempts within 20 s per frame; a frame
        that still fails is written as not localized and the command exits 1.
        """
    static let epilogue = """
        EXAMPLE:
          arcloud localize --map Maps/gallery.vpsmap Datasets/gallery-query-walk
          arcloud localize --server http://127.0.0.1:8080 --token "$TOKEN" --map gallery \\
                           Datasets/gallery-query-walk --concurrency 8
        """

    struct Options: CommandArguments {
        let map = Option.required("map", .text.placeholder("<file>"), help: "The map (.vpsmap) to localize against")
        let session = Positional("session dir")
        let mode = Option("mode", .oneOf(LocalizationMode.self).placeholder("<mode>"), default: .singleShot,
                          help: "single-shot (each frame alone) or tracking (previous result + device odometry as a "
                              + "prior, single-shot fallback)")
        let out = Option("out", .text.placeholder("<dir>"), help: "Output folder", defaultText: "out/<session name>")
        let workers = Option("workers", .integer(in: 1...256).placeholder("<N>"),
                             default: Cores.available, help: "Worker threads",
                             defaultText: "all cores")
        let features = Option("features", .integer(in: 100...20000).placeholder("<N>"), help: "ORB features per frame",
                              defaultText: "1000; 3000 on a map of at most 5,000 points, matched whole when its words do not place the frame")
        let noGravity = Flag("no-gravity", help: "Localize from the images alone. By default each frame's gravity (from "
                                 + "its gravity-aligned odometry) goes with it, as a phone SDK sends it: pose hypotheses "
                                 + "then need two matches instead of three")
        let noDeblur = Flag("no-deblur", help: "Use every frame as it comes. By default a frame smeared along one "
                                + "direction by 6 px or more is deconvolved before its features are extracted")
        let minRecall = Option("min-recall", .number(in: 0...1).placeholder("<R>"),
                               help: "Exit 1 (after writing everything) when the share of frames within the summary's "
                                   + "first threshold, (5 cm, 2°) — or, without ground truth, the share localized — is "
                                   + "below R (0–1), saying so in one line")
        let server = Option("server", .text.placeholder("<url>"),
                            help: "Localize through the service at this URL (http://host:port); --map then names a map "
                                + "id served there")
        let token = Option("token", .text.placeholder("<token>"), help: "Bearer token for --server",
                           defaultText: "$ARCLOUD_TOKEN")
        let near = Option("near", ValueParser(placeholder: "<LAT,LON,ACCURACY|gps>") { try BatchLocalizer.BatchLocation.parse($0) },
                          help: "A GPS reading (accuracy in metres, 95 %) or each frame's own (gps): in a georeferenced map "
                              + "the keyframes near it are searched first, the whole map when they do not place the frame")
        let concurrency = Option("concurrency", .integer(in: 1...256).placeholder("<N>"), default: 4,
                                 help: "Requests in flight with --server")
    }

    static func run(_ args: ParsedArguments<Options>) async throws -> Int32 {
        let mapPath = args.map, mode = args.mode, sessionURL = URL(fileURLWithPath: args.session)
        let session = try StreamedSession.open(sessionURL), header = session.header
        // A session no frame of which can localize is a failure, not an empty success; the
        // checks are those of every reader (dataset validate, simulate, the SDK).
        try SessionValidator.requireUsable(session, at: sessionURL)
        let out = URL(fileURLWithPath: args.out ?? "out/\(header.name)")
        try OutputLocation.prepareFolder(out.path, for: "--out")

        var batch: BatchLocalizer
        let mapName: String
        let workers: Int
        var service: ServiceFrameLocalizer?
        var localMap: VPSMap?
        var remoteUnits: MapUnits?
        if let server = args.server {
            for (local, given) in [("workers", args.isGiven(\.workers)), ("features", args.features != nil),
                                   ("no-deblur", args.noDeblur)] where given {
                throw UsageError("--\(local) is for the embedded localizer; with --server use --concurrency")
            }
            workers = args.concurrency
            guard let token = args.token ?? ProcessInfo.processInfo.environment["ARCLOUD_TOKEN"], !token.isEmpty else {
                throw UsageError("--server needs --token <token> (or ARCLOUD_TOKEN in the environment)")
            }
            let client: VPSClient
            do { client = try VPSClient(baseURL: server, token: token) } catch { throw UsageError("--server: \(error)") }
            let remote = try await ServiceFrameLocalizer.connect(client, mapId: mapPath)
            service = remote.localizer
            mapName = remote.mapName
            remoteUnits = remote.localizer.mapUnits.flatMap(MapUnits.init(parsing:))
            batch = BatchLocalizer(mode: mode, workers: workers, useGravity: !args.noGravity) { _ in remote.localizer }
        } else {
            if args.token != nil || args.isGiven(\.concurrency) {
                throw UsageError("--token and --concurrency go with --server")
            }
            workers = args.workers
            var options = LocalizerOptions()
            options.motionDeblur.enabled = !args.noDeblur
            if let features = args.features {
                options.useFeatureCount(features)
            }
            let map = try VPSMap.load(from: mapPath)
            mapName = map.metadata.name
            localMap = map
            batch = BatchLocalizer(localizer: try Localizer(map: map, options: options), mode: mode, workers: workers,
                                   useGravity: !args.noGravity)
        }

        batch.location = args.near
        let progress = ProgressReporter(label: "localize \(header.name)", total: session.count)
        let sessionFolder = sessionURL.hasDirectoryPath || sessionURL.pathExtension != "json" ? sessionURL : sessionURL.deletingLastPathComponent()
        let scoring = try BatchScoring(frames: session, map: localMap, units: remoteUnits)
        let (outcomes, seconds) = try BatchRecorder.record(frameCount: session.count, into: out, retention: scoring.retention) {
            try batch.run(frames: session, camera: header.camera, in: sessionFolder, progress: { progress.update($0) }, consume: $0)
        }
        var summary = AccuracySummary(outcomes: outcomes, wallSeconds: seconds, thresholds: scoring.thresholds)
        summary.geoPoses = header.georeference.flatMap { GeoPoseCheck(outcomes, truth: $0) }
        summary.geoPosesToGPS = try GeoPoseGPSCheck(outcomes, frames: session)
        let report = BatchReport(header: header, in: sessionFolder, map: localMap, mapName: mapName, mode: mode.rawValue,
                                 outcomes: outcomes, summary: summary)
        try report.write(to: out, results: false)
        print("session \(header.name) against map \(mapName), mode \(mode.rawValue), "
              + (service.map { "\($0.client.baseURL), \(workers) requests at a time" } ?? "\(workers) workers"))
        print(summary.text)
        report.writtenLines(folder: out).forEach { print($0) }
        if let service {
            print(service.report)
            if let failure = service.failure(frames: session.count) {
                FileHandle.standardError.write(Data("arcloud: localize: \(failure)\n".utf8))
                return 1
            }
        }
        if let failure = args.minRecall.flatMap({ RecallGate(minimum: $0).failure(summary) }) {
            FileHandle.standardError.write(Data("localize: \(failure)\n".utf8))
            return 1
        }
        return 0
    }
}
