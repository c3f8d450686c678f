import Geodesy
import Geometry

/// The `request` part of `POST /v1/localize`: which map, the camera's intrinsics for the
/// image as sent, and optionally a pose prior from device tracking and the device's gravity.
///
/// JSON form:
/// `{"mapId": "gallery", "intrinsics": {"width": 640, "height": 480, "fx": 525, "fy": 525,
///   "cx": 319.5, "cy": 239.5, "distortion": [k1, k2, p1, p2]}, "prior": {"t": [..], "q": [..]},
///   "gravity": [gx, gy, gz], "location": {"latitude": .., "longitude": .., "accuracy": ..},
///   "near": {"position": [x, y, z], "radius": r}}` (all but `mapId` and `intrinsics` optional;
///   `mapId` too when `location` is given).
public struct LocalizeRequest: Sendable, Hashable, Codable {
    public var mapId: String
    public var intrinsics: CameraIntrinsics
    /// A guess of `T_map_camera`, e.g. the last fix carried forward by odometry.
    public var prior: Pose?
    /// The 95 % bounds of `prior`'s error (the last fix's `accuracy` plus the odometry's
    /// drift since); the answer's `accuracy` then includes what it inherits from the prior.
    /// Without it the answer's own bounds stand in for the prior's.
    public var priorAccuracy: PoseAccuracy?
    /// Gravity (world down) in camera coordinates (x right, y down, z forward), any length:
    /// what ARKit/ARCore give with a gravity-aligned world. See `Localizer.localize`.
    public var gravity: SIMD3<Double>?
    /// The phone's GPS reading (W3C names, see `GPSReading`). With it the map id may be
    /// left empty: the service then tries its georeferenced maps within reach of the reading.
    public var location: GPSReading?
    /// Where the camera is believed to be, in map coordinates (a hint from the app). With
    /// it, or with `location` in a georeferenced map, the keyframes near that place are
    /// searched first (`LocationPrior`); it never bends the pose.
    public var near: LocationPrior?

    public init(mapId: String, intrinsics: CameraIntrinsics, prior: Pose? = nil, priorAccuracy: PoseAccuracy? = nil,
                gravity: SIMD3<Double>? = nil, location: GPSReading? = nil, near: LocationPrior? = nil) {
        self.mapId = mapId; self.intrinsics = intrinsics; self.prior = prior; self.priorAccuracy = priorAccuracy
        self.gravity = gravity
        self.location = location; self.near = near
    }

    /// The location prior for a localization in a map with this georeference: `near`
    /// when given, else the GPS reading's (`LocationPrior(reading:georeference:reachMetres:)`)
    /// when the map is georeferenced, else none.
    public func locationPrior(georeference: Georeference?) -> LocationPrior? {
        near ?? LocationPrior(location, georeference: georeference)
    }

    private enum CodingKeys: String, CodingKey { case mapId, intrinsics, prior, priorAccuracy, gravity, location, near }
    private enum IntrinsicsKeys: String, CodingKey { case width, height, fx, fy, cx, cy, distortion }

    // Intrinsics are decoded here rather than with CameraIntrinsics' synthesized Codable
    // because on the wire `distortion` is optional.
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        location = try c.decodeIfPresent(GPSReading.self, forKey: .location)
        // A request with a location may leave the map to the service.
        mapId = location == nil ? try c.decode(String.self, forKey: .mapId) : try c.decodeIfPresent(String.self, forKey: .mapId) ?? ""
        let i = try c.nestedContainer(keyedBy: IntrinsicsKeys.self, forKey: .intrinsics)
        intrinsics = CameraIntrinsics(
            width: try i.decode(Int.self, forKey: .width), height: try i.decode(Int.self, forKey: .height),
            fx: try i.decode(Double.self, forKey: .fx), fy: try i.decode(Double.self, forKey: .fy),
            cx: try i.decode(Double.self, forKey: .cx), cy: try i.decode(Double.self, forKey: .cy),
            distortion: try i.decodeIfPresent([Double].self, forKey: .distortion) ?? [])
        prior = try c.decodeIfPresent(Pose.self, forKey: .prior)
        priorAccuracy = try c.decodeIfPresent(PoseAccuracy.self, forKey: .priorAccuracy)
        if let why = priorAccuracy?.problem {
            throw DecodingError.dataCorruptedError(forKey: .priorAccuracy, in: c, debugDescription: why)
        }
        near = try c.decodeIfPresent(LocationPrior.self, forKey: .near)
        if let g = try c.decodeIfPresent([Double].self, forKey: .gravity) {
            guard g.count == 3, g.allSatisfy(\.isFinite), g.contains(where: { $0 != 0 }) else {
                throw DecodingError.dataCorruptedError(forKey: .gravity, in: c,
                    debugDescription: "gravity must be [gx, gy, gz]: three finite numbers, not all zero")
            }
            gravity = SIMD3(g[0], g[1], g[2])
        }
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(mapId, forKey: .mapId)
        var i = c.nestedContainer(keyedBy: IntrinsicsKeys.self, forKey: .intrinsics)
        try i.encode(intrinsics.width, forKey: .width); try i.encode(intrinsics.height, forKey: .height)
        try i.encode(intrinsics.fx, forKey: .fx); try i.encode(intrinsics.fy, forKey: .fy)
        try i.encode(intrinsics.cx, forKey: .cx); try i.encode(intrinsics.cy, forKey: .cy)
        if !intrinsics.distortion.isEmpty { try i.encode(intrinsics.distortion, forKey: .distortion) }
        try c.encodeIfPresent(prior, forKey: .prior)
        try c.encodeIfPresent(priorAccuracy, forKey: .priorAccuracy)
        if let g = gravity { try c.encode([g.x, g.y, g.z], forKey: .gravity) }
        try c.encodeIfPresent(location, forKey: .location)
        try c.encodeIfPresent(near, forKey: .near)
    }
}
