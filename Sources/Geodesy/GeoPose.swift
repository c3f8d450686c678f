import Foundation
import Geometry

/// A pose on the earth as OGC GeoPose 1.0 Basic-Quaternion (OGC 21-056r11) encodes it, and
/// as the OSCP GeoPose protocol returns a localized camera.
///
/// - `position`: WGS 84 latitude and longitude (degrees) and height above the ellipsoid
///   (metres) of the body's origin (a camera's centre).
/// - `quaternion`: the body's orientation relative to the local east-north-up frame *at
///   `position`* (not at a map's or a service's origin). GeoPose defines the pose as the
///   transform from an outer frame (that ENU frame) to an inner frame obtained by rotating
///   it: rotating the E, N, U axes by `quaternion` gives the body's x, y, z axes. So the
///   columns of its matrix are the body axes in ENU, and it maps body coordinates to ENU
///   ones: `enu = quaternion.rotate(body)`. Hamilton convention, as `Quaternion`.
///
/// Body axes of a camera: x forward along the optical axis, y left, z up in the image
/// (the robotics "forward-left-up" frame). The identity is a level camera looking east with
/// the image upright, the orientation at which GeoPose's yaw, pitch and roll are all zero
/// (Basic-YPR yaws about up from east); yawing +90° about up turns it north. This is the
/// camera frame the OSCP reference client, spARcl, reads from and writes to a GeoPose
/// service (identity looking east, x forward, y left, z up: `convertAugmentedCityCam2WebQuat`
/// and `convertCameraWebXrPoseToGeopose` there). arcloud's camera frame is OpenCV's (x
/// right, y down, z forward, see `Pose`); `openCVCameraToBody` converts.
///
/// JSON, exactly the Basic-Quaternion encoding:
/// `{"position": {"lat": 47.7, "lon": -122.3, "h": 11.5}, "quaternion": {"x": 0, "y": 0, "z": 0, "w": 1}}`.
/// Decoding accepts extra members (the permissive encoding), a quaternion within 10⁻³ of
/// unit length (normalised), latitude −90…90 and longitude −180…180.
public struct GeoPose: Sendable, Hashable {
    public var position: GeodeticPosition
    public var quaternion: Quaternion

    public init(position: GeodeticPosition, quaternion: Quaternion) {
        self.position = position; self.quaternion = quaternion
    }

    /// R_body_camera: OpenCV camera coordinates (x right, y down, z forward) to the GeoPose
    /// body's (x forward, y left, z up).
    public static let openCVCameraToBody = Matrix3(rows: SIMD3(0, 0, 1), SIMD3(-1, 0, 0), SIMD3(0, -1, 0))
}

extension GeoPose: Codable {
    private enum CodingKeys: String, CodingKey { case position, quaternion }
    private enum PositionKeys: String, CodingKey { case lat, lon, h }
    private enum QuaternionKeys: String, CodingKey { case x, y, z, w }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let p = try c.nestedContainer(keyedBy: PositionKeys.self, forKey: .position)
        let q = try c.nestedContainer(keyedBy: QuaternionKeys.self, forKey: .quaternion)
        position = GeodeticPosition(latitude: try p.decode(Double.self, forKey: .lat),
                                    longitude: try p.decode(Double.self, forKey: .lon),
                                    height: try p.decode(Double.self, forKey: .h))
        if let problem = position.problem {
            throw DecodingError.dataCorrupted(.init(codingPath: c.codingPath + [CodingKeys.position], debugDescription: problem))
        }
        let raw = Quaternion(x: try q.decode(Double.self, forKey: .x), y: try q.decode(Double.self, forKey: .y),
                             z: try q.decode(Double.self, forKey: .z), w: try q.decode(Double.self, forKey: .w))
        guard [raw.x, raw.y, raw.z, raw.w].allSatisfy(\.isFinite), abs(raw.norm - 1) < 1e-3 else {
            throw DecodingError.dataCorrupted(.init(codingPath: c.codingPath + [CodingKeys.quaternion],
                debugDescription: "quaternion must be finite and of unit length (norm \(raw.norm))"))
        }
        quaternion = raw.normalized
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        var p = c.nestedContainer(keyedBy: PositionKeys.self, forKey: .position)
        try p.encode(position.latitude, forKey: .lat)
        try p.encode(position.longitude, forKey: .lon)
        try p.encode(position.height, forKey: .h)
        var q = c.nestedContainer(keyedBy: QuaternionKeys.self, forKey: .quaternion)
        try q.encode(quaternion.x, forKey: .x)
        try q.encode(quaternion.y, forKey: .y)
        try q.encode(quaternion.z, forKey: .z)
        try q.encode(quaternion.w, forKey: .w)
    }
}
