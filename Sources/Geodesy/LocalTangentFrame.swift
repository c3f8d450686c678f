import Foundation
import Geometry

/// The local east-north-up (ENU) frame at a WGS 84 origin: EPSG's topocentric coordinates
/// (method 9837, EPSG:4461 axes), metres, origin at `origin`, x east, y north, z up along
/// the ellipsoid's normal there.
///
/// A Cartesian frame, not a map projection: points far from the origin keep exact
/// coordinates, and the earth curves away below them (a point 1 km east at the origin's
/// height lies 7.8 cm below the frame's x-y plane). Conversions go through ECEF and are
/// exact to round-off.
public struct LocalTangentFrame: Sendable, Hashable {
    public let origin: GeodeticPosition
    /// `origin` in ECEF, metres.
    public let originECEF: SIMD3<Double>
    /// The rotation from ECEF to ENU axes: its rows are the east, north and up unit vectors
    /// in ECEF, so `enu = ecefToENU * (ecef − originECEF)`.
    public let ecefToENU: Matrix3

    public init(origin: GeodeticPosition) {
        self.origin = origin
        originECEF = origin.ecef
        let φ = origin.latitude * .pi / 180, λ = origin.longitude * .pi / 180
        let sinφ = sin(φ), cosφ = cos(φ), sinλ = sin(λ), cosλ = cos(λ)
        ecefToENU = Matrix3(rows: SIMD3(-sinλ, cosλ, 0),
                            SIMD3(-sinφ * cosλ, -sinφ * sinλ, cosφ),
                            SIMD3(cosφ * cosλ, cosφ * sinλ, sinφ))
    }

    /// The rotation from ENU to ECEF axes (the transpose of `ecefToENU`).
    public var enuToECEF: Matrix3 { ecefToENU.transposed }

    /// ENU coordinates (metres) of an ECEF point (metres).
    public func enu(fromECEF p: SIMD3<Double>) -> SIMD3<Double> { ecefToENU * (p - originECEF) }

    /// ECEF coordinates (metres) of an ENU point (metres).
    public func ecef(fromENU p: SIMD3<Double>) -> SIMD3<Double> { enuToECEF * p + originECEF }

    /// ENU coordinates (metres) of a geodetic position.
    public func enu(of position: GeodeticPosition) -> SIMD3<Double> { enu(fromECEF: position.ecef) }

    /// The geodetic position of an ENU point (metres).
    public func position(ofENU p: SIMD3<Double>) -> GeodeticPosition { GeodeticPosition(ecef: ecef(fromENU: p)) }

    /// The rotation taking vectors in this frame's ENU axes to `other`'s: R_other_self. Not
    /// the identity for frames at different places: their up axes differ by the angle
    /// between the two normals (1° per 111 km).
    public func rotation(to other: LocalTangentFrame) -> Matrix3 { other.ecefToENU * enuToECEF }

    public static func == (a: LocalTangentFrame, b: LocalTangentFrame) -> Bool { a.origin == b.origin }
    public func hash(into h: inout Hasher) { h.combine(origin) }
}

extension GeodeticPosition {
    /// Metres from this position to `other` in this position's horizontal plane (east and
    /// north of its east-north-up frame): how far apart two places are on the map,
    /// whatever their heights, as GPS accuracies and GeoPose errors are stated.
    public func horizontalDistance(to other: GeodeticPosition) -> Double {
        let d = LocalTangentFrame(origin: self).enu(of: other)
        return (d.x * d.x + d.y * d.y).squareRoot()
    }
}
