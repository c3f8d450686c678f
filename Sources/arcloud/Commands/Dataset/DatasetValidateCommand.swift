import Foundation
import Formats
import VPSModel

struct DatasetValidateCommand: Command {
    static let name = "dataset validate"
    static let summary = "Check a recorded session folder and list its problems"
    static let overview = """
        USAGE: arcloud dataset validate <session-dir> [--quiet]

        Reads <session-dir>/session.json and checks: the JSON and its version, pose
        quaternions, camera intrinsics (a field of view of 1° to 179°, distortion that
        neither folds the image nor scales it beyond 0.1x-10x), unique frame ids,
        increasing timestamps within ±1e12 s, the script's length (at most 10000 actions),
        that every frame image exists inside the folder, decodes in full (checksums
        included) and has the camera's width and height. When scene.json is present it is
        checked too.

        Images are decoded on all cores, each file once however many frames name it (its
        problems are listed for every such frame). A session of 1000 frames or more shows
        its progress on stderr unless --quiet is given.

        Prints one line per problem (`<where>: <what>`) and exits 1 if there is any,
        otherwise prints a summary and exits 0.
        """

    static let epilogue = """
        EXAMPLE:
          arcloud dataset validate Datasets/gallery-mapping
        """

    struct Options: CommandArguments {
        let session = Positional("session-dir")
        let quiet = Flag("quiet", help: "Print nothing when the session is valid")
    }

    /// Sessions shorter than this get no progress lines: they are checked in moments, and
    /// logs stay short.
    static let progressFromFrames = 1000

    static func run(_ args: ParsedArguments<Options>) async throws -> Int32 {
        let dir = URL(fileURLWithPath: args.session, isDirectory: true)
        var problems: [DatasetProblem]
        var loaded: RecordedSession?
        switch SessionValidator.load(directory: dir) {
        case .failure(let problem):
            problems = [problem]
        case .success(let session):
            var progress: (@Sendable (Int) -> Void)?
            if !args.quiet, session.frames.count >= progressFromFrames {
                let reporter = ProgressReporter(label: "dataset validate \(session.name)", total: session.frames.count)
                progress = { reporter.update($0) }
            }
            problems = SessionValidator.validate(session, directory: dir, progress: progress)
            loaded = session
        }
        let sceneFile = dir.appendingPathComponent(SceneDescription.fileName)
        if FileManager.default.fileExists(atPath: sceneFile.path) {
            do { _ = try SceneDescription.load(from: sceneFile) } catch let p as DatasetProblem { problems.append(p) }
        }
        if !problems.isEmpty {
            for p in problems { print(p.description) }
            fflush(nil)  // problems on stdout before the summary on stderr
            FileHandle.standardError.write(Data("arcloud: dataset validate: \(problems.count) problem(s) in \(dir.path)\n".utf8))
            return 1
        }
        if !args.quiet, let session = loaded {
            let posed = session.frames.filter { $0.pose != nil }.count
            let odo = session.frames.filter { $0.odometry != nil }.count
            let span = (session.frames.last?.timestamp ?? 0) - (session.frames.first?.timestamp ?? 0)
            print("\(dir.path): valid — '\(session.name)', \(session.frames.count) frames over "
                  + String(format: "%.1f", span) + " s, \(session.camera.width)x\(session.camera.height), "
                  + "\(posed) with ground truth, \(odo) with odometry")
        }
        return 0
    }
}
