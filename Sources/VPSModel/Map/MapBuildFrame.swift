import Geodesy
import Foundation
import Geometry

/// One posed image the builder turns into a keyframe.
public struct MapBuildFrame: Sendable, Hashable {
    public var name: String
    public var timestamp: Double
    /// `T_map_camera`, known (ground truth or a reconstruction's).
    public var pose: Pose
    public var intrinsics: CameraIntrinsics
    public var imageURL: URL
    /// The phone's GPS reading for the frame (a session's `gps`, a photo's EXIF), when
    /// known: the map is georeferenced from these.
    public var gps: GPSReading?

    public init(name: String, timestamp: Double, pose: Pose, intrinsics: CameraIntrinsics, imageURL: URL,
                gps: GPSReading? = nil) {
        self.name = name; self.timestamp = timestamp; self.pose = pose
        self.intrinsics = intrinsics; self.imageURL = imageURL; self.gps = gps
    }

    /// The frames of a recorded session that have a ground-truth pose.
    /// Throws `ContainedPathError` for an image path that leaves `directory` or is not a regular file.
    public static func frames(of session: RecordedSession, in directory: URL) throws -> [MapBuildFrame] {
        try session.frames.compactMap { f in
            guard let pose = f.pose else { return nil }
            return MapBuildFrame(name: f.id, timestamp: f.timestamp, pose: pose, intrinsics: session.camera,
                                 imageURL: try RecordedSession.imageURL(of: f, in: directory), gps: f.gps)
        }
    }
}
