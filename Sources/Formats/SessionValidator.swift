import Foundation
import Geometry
import VPSModel

/// Checks a recorded-session folder and lists every problem it finds.
///
/// Structural problems (unreadable or malformed `session.json`, unknown version,
/// non-unit quaternion) stop the check with that one problem, since nothing after can be
/// trusted. Otherwise all problems are reported: what every reader refuses
/// (`RecordedSession.contentProblems`: invalid intrinsics, no frames, times the replay
/// clock cannot hold, an overlong script), duplicate frame ids, non-monotonic timestamps,
/// image paths outside the folder (symlinks included), non-regular image files, missing
/// images, images that do not decode in full (a checksum, a cut file, a header alone),
/// images whose size differs from the camera's, and odometry that is not gravity-aligned
/// where the ground truth says so. Problems in `session.json` are located as
/// `session.json: <field>`, those of an image file by its path. Each image file is read
/// and decoded once, on all cores, however many frames name it (`FrameImageFiles`).
public enum SessionValidator {
    /// Problems of the session stored in `directory`; empty when it is valid. Images are
    /// checked on `workers` threads (every core when 0); see `validate(_:directory:workers:progress:)`.
    public static func validate(directory: URL, workers: Int = 0,
                                progress: (@Sendable (Int) -> Void)? = nil) -> [DatasetProblem] {
        switch load(directory: directory) {
        case .success(let session): validate(session, directory: directory, workers: workers, progress: progress)
        case .failure(let problem): [problem]
        }
    }

    /// A session no frame of which can be used: the first problem every reader refuses
    /// (`RecordedSession.contentProblems`), naming the file and the field.
    public struct Unusable: Error, Sendable, CustomStringConvertible {
        public let description: String
    }

    /// Throws `Unusable` for the first content problem of `session` (read from `url`):
    /// `DIR/session.json: frames[3].timestamp: …`.
    public static func requireUsable(_ session: RecordedSession, at url: URL) throws(Unusable) {
        guard let problem = session.contentProblems.first else { return }
        throw Unusable(description: "\(RecordedSession.sessionFile(url).path): \(problem.location): \(problem.message)")
    }

    /// The session stored in `directory`, or the one structural problem that stops its check.
    public static func load(directory: URL) -> Result<RecordedSession, DatasetProblem> {
        do {
            return .success(try RecordedSession.load(from: directory))
        } catch let p as DatasetProblem {
            return .failure(p)
        } catch {
            return .failure(DatasetProblem(.unreadableFile, at: RecordedSession.fileName, "\(error)"))
        }
    }

    /// Problems of a decoded `session`; image files are checked when `directory` is given.
    ///
    /// Each distinct image file is read and decoded once, on `workers` threads (every core
    /// when 0), and its problem is reported for every frame that names it. Problems come in
    /// the same order whatever the workers: the session's own, then each frame's in frame
    /// order, then the gravity check's. `progress` is called with the number of frames whose
    /// image has been checked, one call at a time, in increasing order.
    public static func validate(_ session: RecordedSession, directory: URL?, workers: Int = 0,
                                progress: (@Sendable (Int) -> Void)? = nil) -> [DatasetProblem] {
        validate(session, directory: directory, workers: workers, progress: progress, check: FrameImageFiles.check)
    }

    /// `validate(_:directory:workers:progress:)` with `check` reading and decoding each image file.
    static func validate(_ session: RecordedSession, directory: URL?, workers: Int,
                         progress: (@Sendable (Int) -> Void)?,
                         check: @Sendable (URL) -> FrameImageFiles.Finding) -> [DatasetProblem] {
        let images = directory.map {
            FrameImageFiles(session.frames, in: $0, workers: workers, progress: progress, check: check)
        }
        var problems: [DatasetProblem] = []
        if session.version != RecordedSession.currentVersion {
            problems.append(DatasetProblem(.unsupportedVersion, at: field("version"),
                "version \(session.version) is not supported (this build reads version \(RecordedSession.currentVersion))"))
        }
        problems += session.contentProblems.map { DatasetProblem($0.kind, at: field($0.location), $0.message) }
        var firstIndexOfId: [String: Int] = [:]
        for (i, frame) in session.frames.enumerated() {
            let at = field("frames[\(i)]")
            if let first = firstIndexOfId[frame.id] {
                problems.append(DatasetProblem(.duplicateFrameId, at: "\(at).id",
                    "id '\(frame.id)' is already used by frames[\(first)]"))
            } else {
                firstIndexOfId[frame.id] = i
            }
            if i > 0, SessionTime.problem(frame.timestamp) == nil, SessionTime.problem(session.frames[i - 1].timestamp) == nil,
               frame.timestamp <= session.frames[i - 1].timestamp {
                problems.append(DatasetProblem(.nonMonotonicTimestamp, at: "\(at).timestamp",
                    "timestamp \(frame.timestamp) is not after frames[\(i - 1)]'s \(session.frames[i - 1].timestamp)"))
            }
            for (field, pose) in [("pose", frame.pose), ("odometry", frame.odometry)] {
                if let q = pose?.rotation, abs(q.norm - 1) > 1e-3 {
                    problems.append(DatasetProblem(.nonUnitQuaternion, at: "\(at).\(field).q",
                        "quaternion is not unit length (norm \(q.norm))"))
                }
            }
            if let p = images.flatMap({ imageProblem($0[frame: i], of: frame, index: i, camera: session.camera) }) {
                problems.append(p)
            }
        }
        if let p = gravityProblem(session) { problems.append(p) }
        return problems
    }

    /// A field of `session.json` as a problem's location: `session.json: frames[3].id`.
    static func field(_ path: String) -> String { "\(RecordedSession.fileName): \(path)" }

    /// Frames' gravity comes from their odometry (`RecordedSession.Frame.gravity`), which
    /// must therefore be gravity-aligned like ARKit's and ARCore's; where a frame also has
    /// ground truth the two gravities can be compared. One problem for the session, naming
    /// the first frame, since a frame convention is wrong for all frames or none.
    static let maxGravityDisagreementDegrees = 5.0

    private static func gravityProblem(_ session: RecordedSession) -> DatasetProblem? {
        var bad: [(index: Int, degrees: Double)] = []
        var compared = 0
        for (i, frame) in session.frames.enumerated() {
            guard let g = frame.gravity, let pose = frame.pose, abs(pose.rotation.norm - 1) <= 1e-3 else { continue }
            compared += 1
            let degrees = angleDegrees(between: g, and: pose.gravityInCamera)
            if degrees > maxGravityDisagreementDegrees { bad.append((i, degrees)) }
        }
        guard let first = bad.first else { return nil }
        return DatasetProblem(.odometryNotGravityAligned, at: field("frames[\(first.index)].odometry"),
            String(format: "odometry is not gravity-aligned (+y up) in %d of %d frames (here %.1f° from the ground truth's gravity); "
                   + "localization would use a wrong gravity: fix the odometry frame or localize with --no-gravity",
                   bad.count, compared, first.degrees))
    }

    /// The problem `finding` makes for `frame` (frame `i`), located by its image path or,
    /// for a path outside the folder, by the frame's `image` field.
    private static func imageProblem(_ finding: FrameImageFiles.Finding, of frame: RecordedSession.Frame, index i: Int,
                                     camera cam: CameraIntrinsics) -> DatasetProblem? {
        switch finding {
        case let .decoded(width, height):
            guard width != cam.width || height != cam.height else { return nil }
            return DatasetProblem(.imageSizeMismatch, at: frame.image,
                "image is \(width)x\(height) but the camera says \(cam.width)x\(cam.height)")
        case .outsideFolder:
            return DatasetProblem(.imagePathOutsideSession, at: field("frames[\(i)].image"),
                "'\(frame.image)' must be a path inside the session folder")
        case .missing:
            return DatasetProblem(.missingFrameImage, at: frame.image, "image of frame '\(frame.id)' does not exist")
        case .notRegularFile(let kind):
            return DatasetProblem(.unreadableFrameImage, at: frame.image,
                "image of frame '\(frame.id)' is \(kind), not a regular file")
        case .undecodable(let message):
            return DatasetProblem(.unreadableFrameImage, at: frame.image, "image of frame '\(frame.id)' does not decode: \(message)")
        case .unreadable(let message):
            return DatasetProblem(.unreadableFrameImage, at: frame.image, "image of frame '\(frame.id)': \(message)")
        }
    }
}
