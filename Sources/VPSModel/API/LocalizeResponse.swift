import Geodesy
import Geometry

/// The answer of `POST /v1/localize` (HTTP 200), and of the in-process engine behind it.
///
/// A frame that could not be localized is still a 200 with `status: "notLocalized"` and a
/// `reason`: the request was fine, the image just did not match the map well enough.
///
/// The original design named the reprojection error field `error`; it is `reprojectionError` here so
/// it cannot be confused with the `{"error": {...}}` envelope of failed requests.
public struct LocalizeResponse: Sendable, Hashable, Codable {
    public enum Status: String, Sendable, Hashable, Codable {
        case localized, notLocalized
    }

    public var status: Status
    public var mapId: String
    /// The content version (SHA-256 of the map file, hexadecimal) of the map that answered:
    /// during a rollout, replicas serving the old and the new file say so.
    public var mapVersion: String?
    /// `T_map_camera` when localized.
    public var pose: Pose?
    /// The map section the camera is in, when localized and known.
    public var sectionId: String?
    /// Bounds on the pose's error when localized (`PoseAccuracy`): `position` in map units (metres on a
    /// metric map), `rotationDegrees` in degrees.
    public var accuracy: PoseAccuracy?
    /// The pose on the earth, when localized in a georeferenced map (OGC GeoPose
    /// Basic-Quaternion; `LocalizationResult.geoPose`).
    public var geoPose: GeoPose?
    /// Bounds at probability 0.95 on the GeoPose's error: `position` in metres, `rotationDegrees` in degrees.
    public var geoAccuracy: PoseAccuracy?
    /// Inlier 2D–3D correspondences of the accepted (or best rejected) pose.
    public var inliers: Int
    /// RMS reprojection error of the inliers, in pixels.
    public var reprojectionError: Double?
    /// Tentative 2D–3D correspondences fed to the robust solver.
    public var matches: Int?
    /// Whether the request's prior was used (guided matching) rather than global retrieval.
    public var usedPrior: Bool?
    /// Why the frame was not localized (e.g. "too few inliers (12 < 30)").
    public var reason: String?
    /// What the request's location prior did (`LocationPriorUse`: `narrowed`, `outsideMap`,
    /// `notConfirmed`), when it had one.
    public var locationPrior: LocationPriorUse?
    /// Milliseconds per stage (`decode`, `features`, `match`, `solve`, `total`, ...).
    public var timings: [String: Double]

    public init(status: Status, mapId: String, pose: Pose? = nil, sectionId: String? = nil, inliers: Int = 0,
                reprojectionError: Double? = nil, reason: String? = nil, timings: [String: Double] = [:], mapVersion: String? = nil,
                matches: Int? = nil, usedPrior: Bool? = nil, accuracy: PoseAccuracy? = nil,
                geoPose: GeoPose? = nil, geoAccuracy: PoseAccuracy? = nil, locationPrior: LocationPriorUse? = nil) {
        self.status = status; self.mapId = mapId; self.pose = pose; self.sectionId = sectionId
        self.inliers = inliers; self.reprojectionError = reprojectionError; self.reason = reason
        self.timings = timings; self.mapVersion = mapVersion; self.matches = matches; self.usedPrior = usedPrior
        self.accuracy = accuracy; self.geoPose = geoPose; self.geoAccuracy = geoAccuracy
        self.locationPrior = locationPrior
    }
}
