import Foundation
import Geometry

extension Georeference {
    /// Why `manual` refused its arguments.
    public struct ManualError: Error, Sendable, Hashable, CustomStringConvertible {
        public var description: String
    }

    /// A georeference set by hand: the map's origin sits at `origin`, the map's `mapUp` axis
    /// points up (along the ellipsoid's normal there) and its `mapForward` axis points at the
    /// compass bearing `headingDegrees` (true north 0°, east 90°, clockwise), with `scale`
    /// metres per map unit.
    ///
    /// `mapUp` and `mapForward` are map-frame vectors of any non-zero length; only the part
    /// of `mapForward` perpendicular to `mapUp` counts, so they must not be parallel. The
    /// defaults suit arcloud's own maps: +y up, and the bearing given for +x.
    ///
    /// - Throws: `ManualError` for an invalid origin, a non-finite heading, a scale that is
    ///   not positive, or axes that are zero, not finite or parallel.
    public static func manual(origin: GeodeticPosition, headingDegrees: Double,
                              mapUp: SIMD3<Double> = SIMD3(0, 1, 0), mapForward: SIMD3<Double> = SIMD3(1, 0, 0),
                              scale: Double = 1) throws -> Georeference {
        if let p = origin.problem { throw ManualError(description: "origin: \(p)") }
        guard headingDegrees.isFinite else { throw ManualError(description: "heading \(headingDegrees)° is not finite") }
        guard scale.isFinite, scale > 0 else { throw ManualError(description: "scale \(scale) must be positive and finite") }
        let upLength = length(mapUp)
        guard upLength.isFinite, upLength > 0 else {
            throw ManualError(description: "the map's up axis (\(mapUp.x), \(mapUp.y), \(mapUp.z)) must be finite and not zero")
        }
        let u = mapUp / upLength
        let across = mapForward - dot(mapForward, u) * u
        let forwardLength = length(mapForward), acrossLength = length(across)
        // Within 0.06° of the up axis the heading would hang on round-off.
        guard forwardLength.isFinite, acrossLength > 1e-3 * forwardLength else {
            throw ManualError(description: "the map's forward axis (\(mapForward.x), \(mapForward.y), \(mapForward.z)) "
                                  + "must be finite, not zero and not along its up axis")
        }
        let f = across / acrossLength
        let g = cross(f, u)
        let β = headingDegrees * .pi / 180
        // The same right-handed triad in ENU: forward at the bearing, up, and forward × up.
        let forwardENU = SIMD3(sin(β), cos(β), 0), upENU = SIMD3<Double>(0, 0, 1)
        let gENU = cross(forwardENU, upENU)
        // R = Σ e_k m_kᵀ maps each map axis of the triad onto its ENU counterpart.
        func outer(_ e: SIMD3<Double>, _ m: SIMD3<Double>) -> Matrix3 { Matrix3(rows: e.x * m, e.y * m, e.z * m) }
        let r = outer(forwardENU, f) + outer(upENU, u) + outer(gENU, g)
        return Georeference(origin: origin, scale: scale, rotation: Quaternion(r), translation: .zero, source: .manual)
    }
}

private func + (a: Matrix3, b: Matrix3) -> Matrix3 { Matrix3(rows: a.r0 + b.r0, a.r1 + b.r1, a.r2 + b.r2) }
