import Geometry

/// The `request` part of `POST /v1/localize`: which map, the camera's intrinsics for the
/// image as sent, and optionally a pose prior from device tracking.
///
/// JSON form:
/// `{"mapId": "gallery", "intrinsics": {"width": 640, "height": 480, "fx": 525, "fy": 525,
///   "cx": 319.5, "cy": 239.5, "distortion": [k1, k2, p1, p2]}, "prior": {"t": [..], "q": [..]}}`
/// (`distortion` and `prior` are optional).
public struct LocalizeRequest: Sendable, Hashable, Codable {
    public var mapId: String
    public var intrinsics: CameraIntrinsics
    /// A guess of `T_map_camera`, e.g. the last fix carried forward by odometry.
    public var prior: Pose?

    public init(mapId: String, intrinsics: CameraIntrinsics, prior: Pose? = nil) {
        self.mapId = mapId; self.intrinsics = intrinsics; self.prior = prior
    }

    private enum CodingKeys: String, CodingKey { case mapId, intrinsics, prior }
    private enum IntrinsicsKeys: String, CodingKey { case width, height, fx, fy, cx, cy, distortion }

    // Intrinsics are decoded here rather than with CameraIntrinsics' synthesized Codable
    // because on the wire `distortion` is optional.
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        mapId = try c.decode(String.self, forKey: .mapId)
        let i = try c.nestedContainer(keyedBy: IntrinsicsKeys.self, forKey: .intrinsics)
        intrinsics = CameraIntrinsics(
            width: try i.decode(Int.self, forKey: .width), height: try i.decode(Int.self, forKey: .height),
            fx: try i.decode(Double.self, forKey: .fx), fy: try i.decode(Double.self, forKey: .fy),
            cx: try i.decode(Double.self, forKey: .cx), cy: try i.decode(Double.self, forKey: .cy),
            distortion: try i.decodeIfPresent([Double].self, forKey: .distortion) ?? [])
        prior = try c.decodeIfPresent(Pose.self, forKey: .prior)
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
    }
}
