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
    /// The session is read as a stream (`StreamedSession`), its frames gone over a few
    /// times and never all held.
    public static func validate(directory: URL, workers: Int = 0,
                                progress: (@Sendable (Int) -> Void)? = nil) -> [DatasetProblem] {
        switch open(directory: directory) {
        case .success(let session):
            validate(session.header, frames: session, directory: directory, workers: workers, progress: progress,
                     check: FrameImageFiles.check)
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

    /// Throws `Unusable` for the first content problem of the streamed `session` (read from
    /// `url`), as `requireUsable(_:at:)` for the session loaded whole; the frames' times are
    /// read in a pass over them, up to the first problem.
    public static func requireUsable(_ session: StreamedSession, at url: URL) throws {
        guard let problem = try session.contentProblems(limit: 1).first else { return }
        throw Unusable(description: "\(RecordedSession.sessionFile(url).path): \(problem.location): \(problem.message)")
    }

    /// The session stored in `directory`, or the one structural problem that stops its check.
    public static func load(directory: URL) -> Result<RecordedSession, DatasetProblem> {
        located { try RecordedSession.load(from: directory) }
    }

    /// The session stored in `directory` read as a stream (every frame decoded once, none
    /// kept), or the one structural problem that stops its check: `load`'s.
    public static func open(directory: URL) -> Result<StreamedSession, DatasetProblem> {
        located { try StreamedSession.open(directory) }
    }

    /// `read()`, or its error as the problem that stops a check.
    private static func located<T>(_ read: () throws -> T) -> Result<T, DatasetProblem> {
        do {
            return .success(try read())
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
        validate(session, frames: session.frames, directory: directory, workers: workers, progress: progress, check: check)
    }

    /// The check of a session whose frames are `frames` and the rest `header` (its own
    /// frames are not read). The frames are read in order, once to gather what the checks
    /// need (each image path once, every id, the per-frame problems), and once more, after
    /// the images are checked, only when some image has a problem to name its frame by.
    /// `visit` sees each frame in the first pass (a caller's own figures, without a pass of its own).
    static func validate(_ header: RecordedSession, frames: some SessionFrames, directory: URL?, workers: Int,
                         progress: (@Sendable (Int) -> Void)?,
                         check: @Sendable (URL) -> FrameImageFiles.Finding,
                         visit: (Int, RecordedSession.Frame) -> Void = { _, _ in }) -> [DatasetProblem] {
        var problems: [DatasetProblem] = []
        if header.version != RecordedSession.currentVersion {
            problems.append(DatasetProblem(.unsupportedVersion, at: field("version"),
                "version \(header.version) is not supported (this build reads version \(RecordedSession.currentVersion))"))
        }
        var content = header.headerProblems(frameCount: frames.count)
        var framesProblems: [(index: Int, problem: DatasetProblem)] = []
        var paths = FrameImageFiles.Paths()
        var ids = FrameIdIndex()
        var previous: Double?
        var gravity = GravityAgreement()
        do {
            try frames.forEach { i, frame in
                if let p = SessionTime.problem(ofFrame: frame, at: i) { content.append(p) }
                if directory != nil { paths.add(frame.image) }
                let at = field("frames[\(i)]")
                if let first = try ids.firstIndex(of: frame.id, at: i, idOfFrame: { try frames.reader(from: $0)()?.id ?? "" }) {
                    framesProblems.append((i, DatasetProblem(.duplicateFrameId, at: "\(at).id",
                        "id '\(frame.id)' is already used by frames[\(first)]")))
                }
                if let previous, SessionTime.problem(frame.timestamp) == nil, SessionTime.problem(previous) == nil,
                   frame.timestamp <= previous {
                    framesProblems.append((i, DatasetProblem(.nonMonotonicTimestamp, at: "\(at).timestamp",
                        "timestamp \(frame.timestamp) is not after frames[\(i - 1)]'s \(previous)")))
                }
                previous = frame.timestamp
                for (field, pose) in [("pose", frame.pose), ("odometry", frame.odometry)] {
                    if let q = pose?.rotation, abs(q.norm - 1) > 1e-3 {
                        framesProblems.append((i, DatasetProblem(.nonUnitQuaternion, at: "\(at).\(field).q",
                            "quaternion is not unit length (norm \(q.norm))")))
                    }
                }
                gravity.add(frame, at: i)
                visit(i, frame)
            }
            ids = FrameIdIndex()
            problems += (content + SessionTime.problems(ofScript: header.script)).map {
                DatasetProblem($0.kind, at: field($0.location), $0.message)
            }
            let images = directory.map { FrameImageFiles(paths, in: $0, workers: workers, progress: progress, check: check) }
            paths = FrameImageFiles.Paths()
            let camera = header.camera
            if let images, !images.allDecode(width: camera.width, height: camera.height) {
                var k = 0
                try frames.forEach { i, frame in
                    while k < framesProblems.count, framesProblems[k].index == i { problems.append(framesProblems[k].problem); k += 1 }
                    if let p = imageProblem(images[frame: i], of: frame, index: i, camera: camera) { problems.append(p) }
                }
            } else {
                problems += framesProblems.map(\.problem)
            }
        } catch let p as DatasetProblem {
            // The file changed under the check (it was read whole once): that is its problem.
            problems.append(p)
        } catch {
            problems.append(DatasetProblem(.unreadableFile, at: RecordedSession.fileName, "\(error)"))
        }
        if let p = gravity.problem { problems.append(p) }
        return problems
    }

    /// A field of `session.json` as a problem's location: `session.json: frames[3].id`.
    static func field(_ path: String) -> String { "\(RecordedSession.fileName): \(path)" }

    /// Frames' gravity comes from their odometry (`RecordedSession.Frame.gravity`), which
    /// must therefore be gravity-aligned like ARKit's and ARCore's; where a frame also has
    /// ground truth the two gravities can be compared. One problem for the session, naming
    /// the first frame, since a frame convention is wrong for all frames or none.
    static let maxGravityDisagreementDegrees = 5.0

    /// The gravity check gathered a frame at a time: how many frames were compared, how
    /// many disagree, and the first that does.
    private struct GravityAgreement {
        var compared = 0, disagreeing = 0
        var first: (index: Int, degrees: Double)?

        mutating func add(_ frame: RecordedSession.Frame, at i: Int) {
            guard let g = frame.gravity, let pose = frame.pose, abs(pose.rotation.norm - 1) <= 1e-3 else { return }
            compared += 1
            let degrees = angleDegrees(between: g, and: pose.gravityInCamera)
            guard degrees > maxGravityDisagreementDegrees else { return }
            disagreeing += 1
            if first == nil { first = (i, degrees) }
        }

        var problem: DatasetProblem? {
            guard let first else { return nil }
            return DatasetProblem(.odometryNotGravityAligned, at: field("frames[\(first.index)].odometry"),
                String(format: "odometry is not gravity-aligned (+y up) in %d of %d frames (here %.1f° from the ground truth's gravity); "
                       + "localization would use a wrong gravity: fix the odometry frame or localize with --no-gravity",
                       disagreeing, compared, first.degrees))
        }
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
