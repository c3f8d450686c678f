import Foundation
import VPSModel

/// A recorded-session folder checked as `arcloud dataset validate` checks it: the session
/// (`SessionValidator`, reading it as a stream), then its scene.json when there is one.
public struct SessionFolderCheck: Sendable {
    /// The session without its frames, when session.json could be read.
    public var header: RecordedSession?
    /// How many frames the session has (0 when it could not be read).
    public var frameCount = 0
    /// Every problem found: the session's (or the one that stopped its check), then the
    /// scene description's.
    public var problems: [DatasetProblem]
    /// For a valid session: frames with ground truth, with odometry, and the first and last timestamps.
    private var counts: (posed: Int, odometry: Int, first: Double, last: Double)?

    /// Checks `folder` on all cores; `progress` is asked, once the session is read (its
    /// header and frame count), for what to call with the count of frames whose image is
    /// checked (nil: nothing). Throws only what stops a check short of a problem list (a
    /// scene.json that cannot be read otherwise than as a dataset problem).
    public init(folder: URL, progress: (RecordedSession, Int) -> (@Sendable (Int) -> Void)?) throws {
        switch SessionValidator.open(directory: folder) {
        case .failure(let problem):
            problems = [problem]
        case .success(let session):
            header = session.header
            frameCount = session.count
            var posed = 0, odometry = 0, first = 0.0, last = 0.0
            problems = SessionValidator.validate(session.header, frames: session, directory: folder, workers: 0,
                                                 progress: progress(session.header, session.count),
                                                 check: FrameImageFiles.check) { i, frame in
                if frame.pose != nil { posed += 1 }
                if frame.odometry != nil { odometry += 1 }
                if i == 0 { first = frame.timestamp }
                last = frame.timestamp
            }
            counts = (posed, odometry, first, last)
        }
        let sceneFile = folder.appendingPathComponent(SceneDescription.fileName)
        if FileManager.default.fileExists(atPath: sceneFile.path) {
            do { _ = try SceneDescription.load(from: sceneFile) } catch let p as DatasetProblem { problems.append(p) }
        }
    }

    /// For a valid session: `valid — 'name', N frames over S s, WxH, P with ground truth,
    /// O with odometry` (S: first to last timestamp, seconds).
    public var summary: String? {
        guard problems.isEmpty, let header, let counts else { return nil }
        return "valid — '\(header.name)', \(frameCount) frames over " + String(format: "%.1f", counts.last - counts.first)
            + " s, \(header.camera.width)x\(header.camera.height), \(counts.posed) with ground truth, \(counts.odometry) with odometry"
    }
}
