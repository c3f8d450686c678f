import Foundation
import Geometry

/// Checks a recorded-session folder and lists every problem it finds.
///
/// Structural problems (unreadable or malformed `session.json`, unknown version,
/// non-unit quaternion) stop the check with that one problem, since nothing after can be
/// trusted. Otherwise all problems are reported: invalid intrinsics, duplicate frame ids,
/// non-monotonic timestamps, times the replay clock cannot hold, image paths outside the
/// folder (symlinks included), non-regular image files, missing or unreadable
/// images, images whose stored size differs from the camera's, and odometry that is not
/// gravity-aligned where the ground truth says so.
public enum SessionValidator {
    /// Problems of the session stored in `directory`; empty when it is valid.
    public static func validate(directory: URL) -> [DatasetProblem] {
        let session: RecordedSession
        do {
            session = try RecordedSession.load(from: directory)
        } catch let p as DatasetProblem {
            return [p]
        } catch {
            return [DatasetProblem(.unreadableFile, at: RecordedSession.fileName, "\(error)")]
        }
        return validate(session, directory: directory)
    }

    /// Problems of a decoded `session`; image files are checked when `directory` is given.
    public static func validate(_ session: RecordedSession, directory: URL?) -> [DatasetProblem] {
        var problems: [DatasetProblem] = []
        if session.version != RecordedSession.currentVersion {
            problems.append(DatasetProblem(.unsupportedVersion, at: "version",
                "version \(session.version) is not supported (this build reads version \(RecordedSession.currentVersion))"))
        }
        if let p = session.camera.problem {
            problems.append(DatasetProblem(.invalidCamera, at: "camera", p))
        }
        if session.frames.isEmpty {
            problems.append(DatasetProblem(.noFrames, at: "frames", "the session has no frames"))
        }
        var firstIndexOfId: [String: Int] = [:]
        for (i, frame) in session.frames.enumerated() {
            let at = "frames[\(i)]"
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
            if let directory { problems += imageProblems(frame, index: i, session: session, directory: directory) }
        }
        problems += SessionTime.problems(of: session)
        if let p = gravityProblem(session) { problems.append(p) }
        return problems
    }

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
        return DatasetProblem(.odometryNotGravityAligned, at: "frames[\(first.index)].odometry",
            String(format: "odometry is not gravity-aligned (+y up) in %d of %d frames (here %.1f° from the ground truth's gravity); "
                   + "localization would use a wrong gravity: fix the odometry frame or localize with --no-gravity",
                   bad.count, compared, first.degrees))
    }

    private static func imageProblems(_ frame: RecordedSession.Frame, index i: Int,
                                      session: RecordedSession, directory: URL) -> [DatasetProblem] {
        let url: URL
        do {
            url = try RecordedSession.imageURL(of: frame, in: directory)
        } catch let e as ContainedPathError {
            switch e.reason {
            case .empty, .outsideFolder:
                return [DatasetProblem(.imagePathOutsideSession, at: "frames[\(i)].image",
                    "'\(frame.image)' must be a path inside the session folder")]
            case .missing, .folderUnreadable:
                return [DatasetProblem(.missingFrameImage, at: frame.image, "image of frame '\(frame.id)' does not exist")]
            case .notRegularFile(let kind):
                return [DatasetProblem(.unreadableFrameImage, at: frame.image,
                    "image of frame '\(frame.id)' is \(kind), not a regular file")]
            }
        } catch {
            return [DatasetProblem(.unreadableFrameImage, at: frame.image, "\(error)")]
        }
        guard let header = ImageHeader.read(url) else {
            return [DatasetProblem(.unreadableFrameImage, at: frame.image,
                "image of frame '\(frame.id)' is not a JPEG or PNG with a readable size")]
        }
        let cam = session.camera
        if header.width != cam.width || header.height != cam.height {
            return [DatasetProblem(.imageSizeMismatch, at: frame.image,
                "image is \(header.width)x\(header.height) but the camera says \(cam.width)x\(cam.height)")]
        }
        return []
    }
}
