import Geometry

/// A mapping image kept in the map: where it was taken and with which camera.
///
/// Keyframes keep no unmatched features; what they saw of the map is in the map's
/// observations (point, keyframe, pixel, octave).
public struct MapKeyframe: Sendable, Hashable {
    /// The frame id in the source session (or the COLMAP image name).
    public var name: String
    /// Seconds since the start of the source session.
    public var timestamp: Double
    /// `T_map_camera`.
    public var pose: Pose
    /// Intrinsics and image size of this keyframe.
    public var intrinsics: CameraIntrinsics
    /// Index into the map's sections, or nil.
    public var section: Int?

    public init(name: String, timestamp: Double, pose: Pose, intrinsics: CameraIntrinsics, section: Int? = nil) {
        self.name = name; self.timestamp = timestamp; self.pose = pose
        self.intrinsics = intrinsics; self.section = section
    }
}

/// One sighting of a map point in a keyframe.
public struct MapObservation: Sendable, Hashable {
    /// Index of the point in the map.
    public var point: UInt32
    /// Index of the keyframe in the map.
    public var keyframe: UInt32
    /// Pixel of the keypoint in the keyframe's image (as stored, distorted if the camera is).
    public var pixel: SIMD2<Float>
    /// ORB pyramid level the keypoint was detected at (0 = full resolution).
    public var octave: UInt8

    public init(point: UInt32, keyframe: UInt32, pixel: SIMD2<Float>, octave: UInt8) {
        self.point = point; self.keyframe = keyframe; self.pixel = pixel; self.octave = octave
    }
}
