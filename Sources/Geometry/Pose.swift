import Foundation

/// A rigid transform in SE(3). By convention in arcloud a camera pose is `T_map_camera`:
/// it maps points from the camera frame (OpenCV: x right, y down, z forward) into the map
/// frame (metres, +y up), so `translation` is the camera centre in the map.
///
/// JSON form (used by datasets, maps and the HTTP API alike):
/// `{"t": [tx, ty, tz], "q": [qx, qy, qz, qw]}`.
public struct Pose: Sendable, Hashable, Codable {
    public var rotation: Quaternion
    public var translation: SIMD3<Double>

    public init(rotation: Quaternion, translation: SIMD3<Double>) {
        self.rotation = rotation; self.translation = translation
    }

    public init(rotationMatrix: Matrix3, translation: SIMD3<Double>) {
        self.init(rotation: Quaternion(rotationMatrix), translation: translation)
    }

    public static let identity = Pose(rotation: .identity, translation: .zero)

    public var inverse: Pose {
        let rinv = rotation.conjugate
        return Pose(rotation: rinv, translation: -rinv.rotate(translation))
    }

    /// Composition: `(a * b).apply(p) == a.apply(b.apply(p))`.
    public static func * (a: Pose, b: Pose) -> Pose {
        Pose(rotation: (a.rotation * b.rotation).normalized,
             translation: a.rotation.rotate(b.translation) + a.translation)
    }

    public func apply(_ p: SIMD3<Double>) -> SIMD3<Double> { rotation.rotate(p) + translation }

    /// Camera centre when this is `T_map_camera`.
    public var center: SIMD3<Double> { translation }

    /// World down, (0, −1, 0) in a map frame with +y up, in the camera's coordinates when
    /// this is `T_map_camera` (or `T_local_camera` of a gravity-aligned tracking frame):
    /// what a phone's IMU reports as gravity.
    public var gravityInCamera: SIMD3<Double> { rotation.matrix.transposed * SIMD3(0, -1, 0) }

    /// Translation distance (same units as the poses) and rotation angle (degrees).
    public func error(to other: Pose) -> (translation: Double, rotationDegrees: Double) {
        (length(translation - other.translation), rotation.angle(to: other.rotation) * 180 / .pi)
    }

    /// Camera looking from `eye` at `target` with `up` (map frame) pointing up in the image.
    public static func lookAt(eye: SIMD3<Double>, target: SIMD3<Double>,
                              up: SIMD3<Double> = SIMD3(0, 1, 0)) -> Pose {
        let z = normalize(target - eye)          // forward
        let x = normalize(cross(z, up))          // right (image y is down)
        let y = cross(z, x)                      // down
        // Columns of R_map_camera are the camera axes in the map frame.
        let r = Matrix3(rows: SIMD3(x.x, y.x, z.x), SIMD3(x.y, y.y, z.y), SIMD3(x.z, y.z, z.z))
        return Pose(rotationMatrix: r, translation: eye)
    }
}

extension Pose {
    private enum CodingKeys: String, CodingKey { case t, q }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let t = try c.decode([Double].self, forKey: .t)
        let q = try c.decode([Double].self, forKey: .q)
        guard t.count == 3, q.count == 4, (t + q).allSatisfy(\.isFinite) else {
            throw DecodingError.dataCorrupted(.init(codingPath: c.codingPath,
                debugDescription: "a pose needs t: [tx, ty, tz] and q: [qx, qy, qz, qw], all finite"))
        }
        let quat = Quaternion(x: q[0], y: q[1], z: q[2], w: q[3])
        guard abs(quat.norm - 1) < 1e-3 else {
            throw DecodingError.dataCorrupted(.init(codingPath: c.codingPath + [CodingKeys.q],
                debugDescription: "quaternion is not unit length (norm \(quat.norm))"))
        }
        self.init(rotation: quat.normalized, translation: SIMD3(t[0], t[1], t[2]))
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode([translation.x, translation.y, translation.z], forKey: .t)
        try c.encode([rotation.x, rotation.y, rotation.z, rotation.w], forKey: .q)
    }
}

extension Pose {
    /// One line of a TUM trajectory: `timestamp tx ty tz qx qy qz qw`.
    public func tumLine(timestamp: Double) -> String {
        let v = [translation.x, translation.y, translation.z, rotation.x, rotation.y, rotation.z, rotation.w]
        return String(format: "%.6f", timestamp) + v.map { String(format: " %.9f", $0) }.joined()
    }

    /// Parses a TUM trajectory line; nil for comments, blank or malformed lines.
    public static func parseTUM(_ line: Substring) -> (timestamp: Double, pose: Pose)? {
        let t = line.trimmingCharacters(in: .whitespaces)
        if t.isEmpty || t.hasPrefix("#") { return nil }
        let f = t.split(whereSeparator: { $0 == " " || $0 == "\t" }).compactMap { Double($0) }
        guard f.count == 8 else { return nil }
        let q = Quaternion(x: f[4], y: f[5], z: f[6], w: f[7])
        guard abs(q.norm - 1) < 1e-3 else { return nil }
        return (f[0], Pose(rotation: q.normalized, translation: SIMD3(f[1], f[2], f[3])))
    }
}

/// The angle between two directions (any lengths > 0), in degrees.
public func angleDegrees(between a: SIMD3<Double>, and b: SIMD3<Double>) -> Double {
    acos(max(-1, min(1, dot(normalize(a), normalize(b))))) * 180 / .pi
}
