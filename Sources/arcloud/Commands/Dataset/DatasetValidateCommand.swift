import Foundation
import Formats

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
        let check = try SessionFolderCheck(folder: dir) { session, frames in
            guard !args.quiet, frames >= progressFromFrames else { return nil }
            let reporter = ProgressReporter(label: "dataset validate \(session.name)", total: frames)
            return { reporter.update($0) }
        }
        if !check.problems.isEmpty {
            for p in check.problems { print(p.description) }
            fflush(nil)  // problems on stdout before the summary on stderr
            FileHandle.standardError.write(Data("arcloud: dataset validate: \(check.problems.count) problem(s) in \(dir.path)\n".utf8))
            return 1
        }
        if !args.quiet, let summary = check.summary { print("\(dir.path): \(summary)") }
        return 0
    }
}
