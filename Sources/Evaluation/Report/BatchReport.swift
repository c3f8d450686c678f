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
    public var outcomes: FrameOutcomes
    public var summary: AccuracySummary
    /// The map's points, sections, up and units, drawn under the trajectory and used to
    /// draw the worst frames' matches (`.none`: a trajectory over nothing).
    public var map: ReportMap
    /// The session's camera, to project map points into the worst frames' images.
    public var camera: CameraIntrinsics?
    /// A frame's image file by frame id, for the worst frames' pictures.
    public var frameImage: @Sendable (String) -> URL?

    public init(sessionName: String, mapName: String, mode: String, outcomes: [FrameOutcome], summary: AccuracySummary,
                map: ReportMap = .none, camera: CameraIntrinsics? = nil, frameImages: [String: URL] = [:]) {
        self.init(sessionName: sessionName, mapName: mapName, mode: mode, outcomes: FrameOutcomes(outcomes), summary: summary,
                  map: map, camera: camera, frameImage: { frameImages[$0] })
    }

    public init(sessionName: String, mapName: String, mode: String, outcomes: FrameOutcomes, summary: AccuracySummary,
                map: ReportMap = .none, camera: CameraIntrinsics? = nil,
                frameImage: @escaping @Sendable (String) -> URL? = { _ in nil }) {
        self.sessionName = sessionName; self.mapName = mapName; self.mode = mode
        self.outcomes = outcomes; self.summary = summary
        self.map = map; self.camera = camera; self.frameImage = frameImage
    }

    /// The report of a run of `session` (stored in `directory`) against `map`.
    public init(session: RecordedSession, in directory: URL, map: VPSMap, mode: String,
                outcomes: [FrameOutcome], summary: AccuracySummary) {
        self.init(session: session, in: directory, map: map, mapName: map.metadata.name, mode: mode,
                  outcomes: FrameOutcomes(outcomes), summary: summary)
    }

    /// The report of a run of `session` (stored in `directory`) against `map` when it is at
    /// hand, else against a map known only as `mapName` (a run over the HTTP service): the
    /// same figures and frames, without the map drawn under them.
    public init(session: RecordedSession, in directory: URL, map: VPSMap?, mapName: String, mode: String,
                outcomes: FrameOutcomes, summary: AccuracySummary) {
        self.init(sessionName: session.name, mapName: map?.metadata.name ?? mapName, mode: mode, outcomes: outcomes,
                  summary: summary, map: map.map { ReportMap($0) } ?? .none, camera: session.camera,
                  frameImage: Self.frameImage(of: session, in: directory))
    }

    /// The report of a run of a session read as a stream (`StreamedSession`: `header` is
    /// the session without its frames), stored in `directory`, against `map` when it is at
    /// hand: as `init(session:in:map:mapName:mode:outcomes:summary:)`, each worst frame's
    /// image found from the outcomes, which name it, rather than from frames held in memory.
    public init(header: RecordedSession, in directory: URL, map: VPSMap?, mapName: String, mode: String,
                outcomes: FrameOutcomes, summary: AccuracySummary) {
        self.init(sessionName: header.name, mapName: map?.metadata.name ?? mapName, mode: mode, outcomes: outcomes,
                  summary: summary, map: map.map { ReportMap($0) } ?? .none, camera: header.camera,
                  frameImage: Self.frameImage(of: outcomes, in: directory))
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

    /// A frame's image file (the last frame of that id, as a table by id would keep). A
    /// path that leaves the session folder gets no picture (the report says so), not a
    /// read. Looked up when drawn: the report draws a few frames, a session may have
    /// 100,000.
    private static func frameImage(of session: RecordedSession, in directory: URL) -> @Sendable (String) -> URL? {
        let frames = session.frames
        return { id in frames.last { $0.id == id }.flatMap { try? RecordedSession.imageURL(of: $0, in: directory) } }
    }

    /// A frame's image file as `frameImage(of:in:)` finds it, from the run's outcomes (the
    /// last of that id, read backwards from the end): each names its frame's image.
    private static func frameImage(of outcomes: FrameOutcomes, in directory: URL) -> @Sendable (String) -> URL? {
        return { id in
            outcomes.last { $0.frameId == id }.flatMap { o in
                o.image.flatMap { try? RecordedSession.imageURL(of: RecordedSession.Frame(id: o.frameId, timestamp: o.timestamp, image: $0),
                                                                in: directory) }
            }
        }
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

    /// Writes every file into `folder`; `results.jsonl` too unless `results` is false
    /// (a `BatchRecorder` wrote it as the run went). Each file is written as it is made,
    /// a frame at a time.
    public func write(to folder: URL, results: Bool = true) throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        if results {
            let file = try BufferedFile(folder.appendingPathComponent(File.results))
            for o in outcomes { try file.write(try encoder.encode(o) + [0x0A]) }
            try file.close()
        }
        let header = "# timestamp tx ty tz qx qy qz qw\n"
        // evo refuses a trajectory without poses: with none localized, no file (and none
        // left from an earlier run in this folder); `localize` says why it is absent.
        let trajectoryFile = folder.appendingPathComponent(File.trajectory)
        if outcomes.contains(where: { $0.result.pose != nil }) {
            let file = try BufferedFile(trajectoryFile)
            try file.write(header)
            for o in outcomes { if let p = o.result.pose { try file.write(p.tumLine(timestamp: o.timestamp) + "\n") } }
            try file.close()
        } else {
            try? FileManager.default.removeItem(at: trajectoryFile)
        }
        let poses = try BufferedFile(folder.appendingPathComponent(File.poses))
        for o in outcomes {
            if let p = o.result.pose {
                try poses.write(BenchmarkPoses.line(name: BenchmarkPoses.imageName(of: o), worldToCamera: p.inverse) + "\n")
            }
        }
        try poses.close()
        if outcomes.contains(where: { $0.groundTruth != nil }) {
            let file = try BufferedFile(folder.appendingPathComponent(File.groundTruth))
            try file.write(header)
            for o in outcomes { if let g = o.groundTruth { try file.write(g.tumLine(timestamp: o.timestamp) + "\n") } }
            try file.close()
        }
        let geoJSONFile = folder.appendingPathComponent(File.geoJSON)
        if outcomes.contains(where: { $0.result.geoPose != nil }) {
            let file = try BufferedFile(geoJSONFile)
            _ = try TrajectoryGeoJSON.write(outcomes) { try file.write($0) }
            try file.close()
        } else {
            try? FileManager.default.removeItem(at: geoJSONFile)
        }
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        try encoder.encode(summary).write(to: folder.appendingPathComponent(File.summary), options: .atomic)
        let page = try BufferedFile(folder.appendingPathComponent(File.report))
        var failure: (any Error)?
        ReportPage(report: self).write { part in
            guard failure == nil else { return }
            do { try page.write(part) } catch { failure = error }
        }
        if let failure { throw failure }
        try page.close()
    }

    /// The report page (see `ReportPage`).
    public func html() -> String { ReportPage(report: self).html() }
}
