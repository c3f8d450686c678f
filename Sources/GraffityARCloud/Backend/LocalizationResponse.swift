import Geodesy
import Geometry

/// The answer to a `LocalizationRequest` that the service handled.
public enum LocalizationResponse: Sendable, Hashable {
    /// The frame was localized.
    case localized(LocalizationFix)
    /// The service looked and found no acceptable pose (too few matches, say).
    case notLocalized(reason: String)
}

/// An accepted camera pose in a map.
public struct LocalizationFix: Sendable, Hashable {
    /// `T_map_camera` of the frame that was sent.
    public var pose: Pose
    /// The map section the camera is in; empty when the map has no section there.
    public var sectionId: String
    /// Inlier 2D–3D correspondences supporting the pose.
    public var inliers: Int
    /// RMS reprojection error of the inliers, in pixels, when reported.
    public var reprojectionError: Double?
    /// Bounds on the pose's error (`PoseAccuracy`: map units and degrees), when reported.
    public var accuracy: PoseAccuracy?
    /// The pose on the earth, when the map is georeferenced (OGC GeoPose Basic-Quaternion).
    public var geoPose: GeoPose?
    /// Bounds at probability 0.95 on the GeoPose's error, metres and degrees.
    public var geoAccuracy: PoseAccuracy?

    /// A fix with its support.
    public init(pose: Pose, sectionId: String, inliers: Int, reprojectionError: Double? = nil,
                accuracy: PoseAccuracy? = nil, geoPose: GeoPose? = nil, geoAccuracy: PoseAccuracy? = nil) {
        self.pose = pose; self.sectionId = sectionId
        self.inliers = inliers; self.reprojectionError = reprojectionError; self.accuracy = accuracy
        self.geoPose = geoPose; self.geoAccuracy = geoAccuracy
    }
}
