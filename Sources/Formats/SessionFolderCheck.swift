import Foundation
import VPSModel

/// A recorded-session folder checked as `arcloud dataset validate` checks it: the session
/// (`SessionValidator`), then its scene.json when there is one.
public struct SessionFolderCheck: Sendable {
    /// The session, when session.json could be read.
    public var session: RecordedSession?
    /// Every problem found: the session's (or the one that stopped its check), then the
    /// scene description's.
    public var problems: [DatasetProblem]

    /// Checks `folder` on all cores; `progress` is asked, once the session is read, for
    /// what to call with the count of frames whose image is checked (nil: nothing). Throws
    /// only what stops a check short of a problem list (a scene.json that cannot be read
    /// otherwise than as a dataset problem).
    public init(folder: URL, progress: (RecordedSession) -> (@Sendable (Int) -> Void)?) throws {
        switch SessionValidator.load(directory: folder) {
        case .failure(let problem):
            problems = [problem]
        case .success(let session):
            problems = SessionValidator.validate(session, directory: folder, progress: progress(session))
            self.session = session
        }
        let sceneFile = folder.appendingPathComponent(SceneDescription.fileName)
        if FileManager.default.fileExists(atPath: sceneFile.path) {
            do { _ = try SceneDescription.load(from: sceneFile) } catch let p as DatasetProblem { problems.append(p) }
        }
    }

    /// For a valid session: `valid — 'name', N frames over S s, WxH, P with ground truth,
    /// O with odometry` (S: first to last timestamp, seconds).
    public var summary: String? {
        guard problems.isEmpty, let session else { return nil }
        let posed = session.frames.filter { $0.pose != nil }.count
        let odo = session.frames.filter { $0.odometry != nil }.count
        let span = (session.frames.last?.timestamp ?? 0) - (session.frames.first?.timestamp ?? 0)
        return "valid — '\(session.name)', \(session.frames.count) frames over " + String(format: "%.1f", span)
            + " s, \(session.camera.width)x\(session.camera.height), \(posed) with ground truth, \(odo) with odometry"
    }
}
