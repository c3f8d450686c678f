import Foundation
import VPSModel

struct DatasetExportTUMCommand: Command {
    static let name = "dataset export-tum"
    static let summary = "Write a session's ground truth (or odometry) as a TUM trajectory for evo"
    static let help = """
        USAGE: arcloud dataset export-tum <session-dir> [--output FILE] [--odometry]

        Writes one line per frame with a pose: `timestamp tx ty tz qx qy qz qw`
        (T_map_camera, Hamilton quaternion), the TUM format `evo_ape tum …` reads. Without
        --output the trajectory goes to standard output.

        OPTIONS:
          --output FILE   Write to FILE instead of standard output
          --odometry      Export the device odometry (T_local_camera) instead of ground truth

        EXAMPLE:
          arcloud dataset export-tum Datasets/gallery-query-walk --output gt.tum
        """
    static let options: Set<String> = ["output"]
    static let switches: Set<String> = ["odometry"]

    static func run(_ args: Arguments) async throws -> Int32 {
        try args.noExtraPositionals(beyond: 1)
        let dir = URL(fileURLWithPath: try args.positional(0, "session-dir"), isDirectory: true)
        let session: RecordedSession
        do { session = try RecordedSession.load(from: dir) } catch let p as DatasetProblem {
            throw CommandFailure(p.description)
        }
        let source: RecordedSession.PoseSource = args.has("odometry") ? .odometry : .groundTruth
        let text = session.tumTrajectory(source)
        let count = text.split(separator: "\n").filter { !$0.hasPrefix("#") }.count
        if count == 0 { throw CommandFailure("\(dir.path): no frame has \(source == .odometry ? "odometry" : "a ground-truth pose")") }
        if let out = args.value("output") {
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
