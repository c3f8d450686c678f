import Foundation
import Geometry
import MapModel

/// The rotation from a map's frame to an upright one (+y up), for a map whose up
/// direction is known. The upright pose solver and the gravity checks assume "world down
/// is −y"; a map whose up is another axis (a COLMAP model is often y-down) is solved in
/// this frame and the pose rotated back.
struct UprightFrame: Sendable, Hashable {
    /// The map's unit up vector, in map coordinates.
    let up: SIMD3<Double>
    /// `R` with `R * up = +y`.
    let fromMap: Matrix3
    /// True when the map is already +y up (no rotation needed).
    let isIdentity: Bool

    init(up: SIMD3<Double>) {
        let u = normalize(up), y = SIMD3<Double>(0, 1, 0)
        self.up = u
        let c = dot(u, y)
        if c > 1 - 1e-12 {
            fromMap = .identity
            isIdentity = true
            return
        }
        isIdentity = false
        if c < -1 + 1e-12 {  // upside down: π about x
            fromMap = Matrix3(rows: SIMD3(1, 0, 0), SIMD3(0, -1, 0), SIMD3(0, 0, -1))
            return
        }
        let axis = normalize(cross(u, y))
        fromMap = Quaternion(axis: axis, angle: acos(max(-1, min(1, c)))).matrix
    }

    /// Unit world-down (gravity) direction in map coordinates.
    var down: SIMD3<Double> { -up }
}

extension Localizer {
    /// The map's up direction, when known.
    static func upDirection(of map: VPSMap) -> SIMD3<Double>? {
        map.metadata.up.vector
    }
}
