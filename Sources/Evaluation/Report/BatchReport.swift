import Foundation
import Geometry
import MapModel
import VPSModel

/// Writes the outputs of a batch localization run into a folder:
/// `results.jsonl` (one `FrameOutcome` per line), `trajectory.tum` (estimated poses, TUM
/// format for `evo`), `groundtruth.tum` (when known), `summary.json` and `report.html`
/// (self-contained: inline SVG, a small sorting script, images as data URIs).
public struct BatchReport: Sendable {
    public var sessionName: String
    public var mapName: String
    public var mode: String
    public var outcomes: [FrameOutcome]
    public var summary: AccuracySummary
    /// The map's points, sections, up and units, drawn under the trajectory and used to
    /// draw the worst frames' matches (`.none`: a trajectory over nothing).
    public var map: ReportMap
    /// The session's camera, to project map points into the worst frames' images.
    public var camera: CameraIntrinsics?
    /// Each frame's image file by frame id, for the worst frames' pictures.
    public var frameImages: [String: URL]

    public init(sessionName: String, mapName: String, mode: String, outcomes: [FrameOutcome], summary: AccuracySummary,
                map: ReportMap = .none, camera: CameraIntrinsics? = nil, frameImages: [String: URL] = [:]) {
        self.sessionName = sessionName; self.mapName = mapName; self.mode = mode
        self.outcomes = outcomes; self.summary = summary
        self.map = map; self.camera = camera; self.frameImages = frameImages
    }

    /// The report of a run of `session` (stored in `directory`) against `map`.
    public init(session: RecordedSession, in directory: URL, map: VPSMap, mode: String,
                outcomes: [FrameOutcome], summary: AccuracySummary) {
        self.init(sessionName: session.name, mapName: map.metadata.name, mode: mode, outcomes: outcomes,
                  summary: summary, map: ReportMap(map), camera: session.camera,
                  frameImages: Self.frameImages(of: session, in: directory))
    }

    /// The report of a run of `session` against a map known only by name (a run over the
    /// HTTP service): the same figures and frames, without the map drawn under them.
    public init(session: RecordedSession, in directory: URL, mapName: String, mode: String,
                outcomes: [FrameOutcome], summary: AccuracySummary) {
        self.init(sessionName: session.name, mapName: mapName, mode: mode, outcomes: outcomes,
                  summary: summary, camera: session.camera, frameImages: Self.frameImages(of: session, in: directory))
    }

    /// The report of a run of `session` against `map` when it is at hand, else against a
    /// map known only as `mapName`.
    public init(session: RecordedSession, in directory: URL, map: VPSMap?, mapName: String, mode: String,
                outcomes: [FrameOutcome], summary: AccuracySummary) {
        if let map {
            self.init(session: session, in: directory, map: map, mode: mode, outcomes: outcomes, summary: summary)
        } else {
            self.init(session: session, in: directory, mapName: mapName, mode: mode, outcomes: outcomes, summary: summary)
        }
    }

    /// What `write(to: folder)` leaves there, as `arcloud localize` says it: the files
    /// written, and why the trajectory is not among them when no frame was localized.
    public func writtenLines(folder: URL) -> [String] {
        let files = [File.results, File.poses, File.summary, File.report] + (summary.localized > 0 ? [File.trajectory] : [])
            + (outcomes.contains { $0.result.geoPose != nil } ? [File.geoJSON] : [])
        return ["wrote \(folder.path)/{\(files.joined(separator: ","))}"]
            + (summary.localized == 0 ? ["\(File.trajectory) not written: no frame was localized, and evo cannot read "
                                             + "a trajectory without poses"] : [])
    }

    /// Each frame's image file. A path that leaves the session folder gets no picture (the
    /// report says so), not a read.
    private static func frameImages(of session: RecordedSession, in directory: URL) -> [String: URL] {
        var images: [String: URL] = [:]
        for f in session.frames { images[f.id] = try? RecordedSession.imageURL(of: f, in: directory) }
        return images
    }

    /// The file names written into the output folder.
    public enum File {
        public static let results = "results.jsonl"
        public static let trajectory = "trajectory.tum"
        /// Localized images' world-to-camera poses, hloc / visual-localization benchmark format.
        public static let poses = "poses.txt"
        public static let groundTruth = "groundtruth.tum"
        public static let summary = "summary.json"
        public static let report = "report.html"
        /// The GeoPoses as GeoJSON, when the map is georeferenced (`TrajectoryGeoJSON`).
        public static let geoJSON = "trajectory.geojson"
    }

    public func write(to folder: URL) throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        var jsonl = Data()
        for o in outcomes {
            jsonl.append(try encoder.encode(o))
            jsonl.append(0x0A)
        }
        try jsonl.write(to: folder.appendingPathComponent(File.results), options: .atomic)
        let header = "# timestamp tx ty tz qx qy qz qw\n"
        let estimated = outcomes.compactMap { o in o.result.pose.map { $0.tumLine(timestamp: o.timestamp) } }
        // evo refuses a trajectory without poses: with none localized, no file (and none
        // left from an earlier run in this folder); `localize` says why it is absent.
        let trajectoryFile = folder.appendingPathComponent(File.trajectory)
        if estimated.isEmpty {
            try? FileManager.default.removeItem(at: trajectoryFile)
        } else {
            try (header + estimated.map { $0 + "\n" }.joined()).write(to: trajectoryFile, atomically: true, encoding: .utf8)
        }
        try BenchmarkPoses.text(outcomes).write(to: folder.appendingPathComponent(File.poses), atomically: true, encoding: .utf8)
        let truth = outcomes.compactMap { o in o.groundTruth.map { $0.tumLine(timestamp: o.timestamp) } }
        if !truth.isEmpty {
            try (header + truth.map { $0 + "\n" }.joined())
                .write(to: folder.appendingPathComponent(File.groundTruth), atomically: true, encoding: .utf8)
        }
        let geoJSONFile = folder.appendingPathComponent(File.geoJSON)
        if let geoJSON = TrajectoryGeoJSON.document(outcomes) {
            try geoJSON.write(to: geoJSONFile, options: .atomic)
        } else {
            try? FileManager.default.removeItem(at: geoJSONFile)
        }
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        try encoder.encode(summary).write(to: folder.appendingPathComponent(File.summary), options: .atomic)
        try html().write(to: folder.appendingPathComponent(File.report), atomically: true, encoding: .utf8)
    }

    /// The report page (see `ReportPage`).
    public func html() -> String { ReportPage(report: self).html() }
}
