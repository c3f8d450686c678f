import Foundation
import Geometry
import VPSModel

extension RecordedSession {
    /// Which poses of a session to export.
    public enum PoseSource: String, Sendable, CaseIterable { case groundTruth = "ground-truth", odometry }

    /// The session's poses as a TUM trajectory (`timestamp tx ty tz qx qy qz qw` per line,
    /// a `#` header), as `evo` reads it. Frames without that pose are left out.
    public func tumTrajectory(_ source: PoseSource = .groundTruth) -> String {
        var out = "# \(name): \(source == .groundTruth ? "ground truth T_map_camera" : "odometry T_local_camera")\n"
        out += "# timestamp tx ty tz qx qy qz qw\n"
        for f in frames {
            guard let pose = source == .groundTruth ? f.pose : f.odometry else { continue }
            out += pose.tumLine(timestamp: f.timestamp) + "\n"
        }
        return out
    }
}
