import Foundation
import VPSModel

struct DatasetExportTUMCommand: Command {
    static let name = "dataset export-tum"
    static let summary = "Write a session's ground truth (or odometry) as a TUM trajectory for evo"
    static let overview = """
        USAGE: arcloud dataset export-tum <session-dir> [--output FILE] [--odometry]

        Writes one line per frame with a pose: `timestamp tx ty tz qx qy qz qw`
        (T_map_camera, Hamilton quaternion), the TUM format `evo_ape tum …` reads. Without
        --output the trajectory goes to standard output.
        """

    static let epilogue = """
        EXAMPLE:
          arcloud dataset export-tum Datasets/gallery-query-walk --output gt.tum
        """

    struct Options: CommandArguments {
        let session = Positional("session-dir")
        let output = Option("output", .text.placeholder("FILE"), help: "Write to FILE instead of standard output")
        let odometry = Flag("odometry", help: "Export the device odometry (T_local_camera) instead of ground truth")
    }

    static func run(_ args: ParsedArguments<Options>) async throws -> Int32 {
        let dir = URL(fileURLWithPath: args.session, isDirectory: true)
        let session: RecordedSession
        do { session = try RecordedSession.load(from: dir) } catch let p as DatasetProblem {
            throw CommandFailure(p.description)
        }
        let source: RecordedSession.PoseSource = args.odometry ? .odometry : .groundTruth
        let text = session.tumTrajectory(source)
        let count = text.split(separator: "\n").filter { !$0.hasPrefix("#") }.count
        if count == 0 { throw CommandFailure("\(dir.path): no frame has \(source == .odometry ? "odometry" : "a ground-truth pose")") }
        if let out = args.output {
            do { try Data(text.utf8).write(to: URL(fileURLWithPath: out)) } catch {
                throw CommandFailure("cannot write \(out): \(error.localizedDescription)")
            }
            FileHandle.standardError.write(Data("\(out): \(count) poses\n".utf8))
        } else {
            print(text, terminator: "")
        }
        return 0
    }
}
