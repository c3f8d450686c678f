import Geodesy
import Geometry

/// A recorded camera session: `session.json` beside a `frames/` folder.
///
/// This is the value model of the file; reading, writing and validation live beside it
/// in `Dataset/`. Poses are `T_map_camera` (see `Geometry.Pose`).
public struct RecordedSession: Sendable, Hashable, Codable {
    /// Format version this build writes and reads.
    public static let currentVersion = 1

    public var version: Int
    public var name: String
    public var camera: CameraIntrinsics
    public var frames: [Frame]
    /// Timed user actions for the simulator, in order of time.
    public var script: [ScriptAction]?
    /// Where the scene truly lies on the earth, when known exactly (a synthetic session
    /// made with `--georef`): the ground truth that answers' GeoPoses are scored against,
    /// as `pose` is for their poses.
    public var georeference: Georeference?

    public init(version: Int = RecordedSession.currentVersion, name: String, camera: CameraIntrinsics,
                frames: [Frame], script: [ScriptAction]? = nil) {
        self.version = version; self.name = name; self.camera = camera
        self.frames = frames; self.script = script
    }

    private enum CodingKeys: String, CodingKey { case version, name, camera, frames, script, georeference }

    /// Decodes `session.json`'s form. A script longer than `ScriptLimits.maxActions` is
    /// refused by its count, before its actions are decoded (a `DatasetProblem`).
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        version = try c.decode(Int.self, forKey: .version)
        name = try c.decode(String.self, forKey: .name)
        camera = try c.decode(CameraIntrinsics.self, forKey: .camera)
        frames = try c.decode([Frame].self, forKey: .frames)
        // Read by `SessionJSONReader`, the frames are not in the document decoded here
        // (`frames` is `[]` there): they are decoded now, one at a time, from the file.
        if let stream = decoder.userInfo[SessionFrameStream.userInfoKey] as? SessionFrameStream {
            frames = try stream.frames(codingPath: c.codingPath + [CodingKeys.frames])
        }
        if c.contains(.script), try !c.decodeNil(forKey: .script) {
            let actions = try c.nestedUnkeyedContainer(forKey: .script)
            if let p = ScriptLimits.problem(count: actions.count ?? 0) {
                throw DatasetProblem(.scriptTooLong, at: "\(RecordedSession.fileName): script", p)
            }
            script = try c.decode([ScriptAction].self, forKey: .script)
        }
        georeference = try c.decodeIfPresent(Georeference.self, forKey: .georeference)
    }

    /// One recorded camera frame.
    public struct Frame: Sendable, Hashable, Codable {
        public var id: String
        /// Seconds, as recorded: synthetic sessions start at 0, a TUM import keeps the
        /// sequence's Unix time. Time into the session is `timestamp` minus the first
        /// frame's (replay and plots derive it; the recorded value is what `evo` matches).
        public var timestamp: Double
        /// Image path relative to the session folder, e.g. `frames/000042.jpg`.
        public var image: String
        /// Ground truth `T_map_camera`, when known.
        public var pose: Pose?
        /// Device tracking pose in the device's own local frame (ARKit/ARCore-like,
        /// drift included): `T_local_camera`. The local frame must be gravity-aligned with
        /// +y up, as ARKit's and ARCore's are: the frame's `gravity` is read from it
        /// (`SessionValidator` checks it against the ground truth).
        public var odometry: Pose?
        /// The phone's GPS reading when the frame was taken (W3C names: `latitude`,
        /// `longitude`, `altitude`, `accuracy`, `altitudeAccuracy`), when recorded. A map
        /// built from frames that carry them is georeferenced from them.
        public var gps: GPSReading?

        public init(id: String, timestamp: Double, image: String, pose: Pose? = nil, odometry: Pose? = nil,
                    gps: GPSReading? = nil) {
            self.id = id; self.timestamp = timestamp; self.image = image
            self.pose = pose; self.odometry = odometry; self.gps = gps
        }

        /// The device's gravity in camera coordinates (unit), from its odometry: device
        /// tracking (ARKit, ARCore) keeps its local frame gravity-aligned, +y up, so world
        /// down (0, −1, 0) seen from the camera is `R_local_camera⁻¹ · (0, −1, 0)`. Drift
        /// in yaw and position does not change it. Nil without odometry.
        public var gravity: SIMD3<Double>? {
            odometry?.gravityInCamera
        }
    }
}

/// A timed user action the simulator performs on the session host's clock.
public struct ScriptAction: Sendable, Hashable, Codable {
    /// Seconds since the session's first frame.
    public var time: Double
    public var action: Action

    public init(time: Double, action: Action) { self.time = time; self.action = action }

    public enum Action: Sendable, Hashable, Codable {
        /// Tap at a pixel of the current frame.
        case tap(x: Double, y: Double)
        /// Start navigation to a named node of the map's navigation graph.
        case startNavigation(node: String)
        case stopNavigation
        case reset
        case shutdown
    }
}
