import Foundation

/// A Hamilton unit quaternion `(x, y, z, w)` representing a 3D rotation.
public struct Quaternion: Sendable, Hashable, Codable {
    public var x: Double, y: Double, z: Double, w: Double

    public init(x: Double, y: Double, z: Double, w: Double) {
        self.x = x; self.y = y; self.z = z; self.w = w
    }

    public static let identity = Quaternion(x: 0, y: 0, z: 0, w: 1)

    /// Rotation by `angle` radians about `axis` (need not be unit length).
    public init(axis: SIMD3<Double>, angle: Double) {
        let a = normalize(axis) * sin(angle / 2)
        self.init(x: a.x, y: a.y, z: a.z, w: cos(angle / 2))
    }

    /// From a rotation matrix (Shepperd's method: stable for every rotation).
    public init(_ m: Matrix3) {
        let t = m.r0.x + m.r1.y + m.r2.z
        var q: Quaternion
        if t > 0 {
            let s = (t + 1).squareRoot() * 2
            q = Quaternion(x: (m.r2.y - m.r1.z) / s, y: (m.r0.z - m.r2.x) / s,
                           z: (m.r1.x - m.r0.y) / s, w: s / 4)
        } else if m.r0.x > m.r1.y && m.r0.x > m.r2.z {
            let s = (1 + m.r0.x - m.r1.y - m.r2.z).squareRoot() * 2
            q = Quaternion(x: s / 4, y: (m.r0.y + m.r1.x) / s, z: (m.r0.z + m.r2.x) / s,
                           w: (m.r2.y - m.r1.z) / s)
        } else if m.r1.y > m.r2.z {
            let s = (1 + m.r1.y - m.r0.x - m.r2.z).squareRoot() * 2
            q = Quaternion(x: (m.r0.y + m.r1.x) / s, y: s / 4, z: (m.r1.z + m.r2.y) / s,
                           w: (m.r0.z - m.r2.x) / s)
        } else {
            let s = (1 + m.r2.z - m.r0.x - m.r1.y).squareRoot() * 2
            q = Quaternion(x: (m.r0.z + m.r2.x) / s, y: (m.r1.z + m.r2.y) / s, z: s / 4,
                           w: (m.r1.x - m.r0.y) / s)
        }
        if q.w < 0 { q = Quaternion(x: -q.x, y: -q.y, z: -q.z, w: -q.w) }
        self = q.normalized
    }

    public var norm: Double { (x * x + y * y + z * z + w * w).squareRoot() }
    public var normalized: Quaternion {
        let n = norm
        return Quaternion(x: x / n, y: y / n, z: z / n, w: w / n)
    }
    public var conjugate: Quaternion { Quaternion(x: -x, y: -y, z: -z, w: w) }

    /// The rotation matrix of this (unit) quaternion.
    public var matrix: Matrix3 {
        let xx = x * x, yy = y * y, zz = z * z
        let xy = x * y, xz = x * z, yz = y * z, wx = w * x, wy = w * y, wz = w * z
        return Matrix3(rows: SIMD3(1 - 2 * (yy + zz), 2 * (xy - wz), 2 * (xz + wy)),
                       SIMD3(2 * (xy + wz), 1 - 2 * (xx + zz), 2 * (yz - wx)),
                       SIMD3(2 * (xz - wy), 2 * (yz + wx), 1 - 2 * (xx + yy)))
    }

    public static func * (a: Quaternion, b: Quaternion) -> Quaternion {
        Quaternion(x: a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y,
                   y: a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
                   z: a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w,
                   w: a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z)
    }

    public func rotate(_ v: SIMD3<Double>) -> SIMD3<Double> { matrix * v }

    /// Angle in radians of the rotation taking `self` to `other` (0…π).
    public func angle(to other: Quaternion) -> Double {
        let d = abs(x * other.x + y * other.y + z * other.z + w * other.w)
        return 2 * acos(min(1, d))
    }
}
