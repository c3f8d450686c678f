import Foundation

extension GeodeticPosition {
    /// The position in earth-centred, earth-fixed (ECEF, EPSG:4978) coordinates, metres:
    /// x towards 0° N 0° E, y towards 0° N 90° E, z towards the north pole.
    ///
    /// Exact (the closed form, EPSG guidance note 7-2 method 9602) for any latitude, longitude
    /// and height; round-off alone, well under a micrometre.
    public var ecef: SIMD3<Double> {
        let φ = latitude * .pi / 180, λ = longitude * .pi / 180
        let sinφ = sin(φ), cosφ = cos(φ)
        // Prime-vertical radius of curvature: the normal's length from the surface to the z axis.
        let n = WGS84.semiMajorAxis / (1 - WGS84.eccentricitySquared * sinφ * sinφ).squareRoot()
        return SIMD3((n + height) * cosφ * cos(λ),
                     (n + height) * cosφ * sin(λ),
                     (n * (1 - WGS84.eccentricitySquared) + height) * sinφ)
    }

    /// The geodetic position of an ECEF point (metres), exactly: Vermeille's closed form
    /// (J. Geodesy 76, 2002), no iteration and no flat-earth step. Round trips through
    /// `ecef` agree to well under a micrometre at every latitude (the poles included) for
    /// heights from deep below the surface to beyond geostationary orbit.
    ///
    /// Within about 43 km of the earth's centre (where the normals through a point are not
    /// unique and the closed form does not hold) a fixed-point iteration gives one of the
    /// solutions instead. Longitude is 0 on the polar axis.
    public init(ecef p: SIMD3<Double>) {
        let a = WGS84.semiMajorAxis, e2 = WGS84.eccentricitySquared, e4 = e2 * e2
        let ρ2 = p.x * p.x + p.y * p.y, ρ = ρ2.squareRoot()
        let λ = atan2(p.y, p.x)
        let pp = ρ2 / (a * a)
        let q = (1 - e2) / (a * a) * p.z * p.z
        let r = (pp + q - e4) / 6
        guard r > 0, r.isFinite else {
            self = Self.nearCentre(p, ρ: ρ, λ: λ)
            return
        }
        let s = e4 * pp * q / (4 * r * r * r)
        let t = cbrt(1 + s + (s * (2 + s)).squareRoot())
        let u = r * (1 + t + 1 / t)
        let v = (u * u + e4 * q).squareRoot()
        let w = e2 * (u + v - q) / (2 * v)
        let k = (u + v + w * w).squareRoot() - w
        let d = k * ρ / (k + e2)
        let dz = (d * d + p.z * p.z).squareRoot()
        // 2·atan(z / (d + √(d² + z²))) is the half-angle form: exact at both poles, unlike atan(z/d).
        let φ = 2 * atan2(p.z, d + dz)
        let h = (k + e2 - 1) / k * dz
        self.init(latitude: φ * 180 / .pi, longitude: λ * 180 / .pi, height: h)
    }

    /// Deep inside the earth: iterate φ ← atan2(z + e² N(φ) sin φ, ρ) to a fixed point.
    private static func nearCentre(_ p: SIMD3<Double>, ρ: Double, λ: Double) -> GeodeticPosition {
        let a = WGS84.semiMajorAxis, e2 = WGS84.eccentricitySquared
        var φ = atan2(p.z, ρ * (1 - e2))
        for _ in 0..<100 {
            let sinφ = sin(φ)
            let n = a / (1 - e2 * sinφ * sinφ).squareRoot()
            let next = atan2(p.z + e2 * n * sinφ, ρ)
            if abs(next - φ) < 1e-14 { φ = next; break }
            φ = next
        }
        let sinφ = sin(φ), cosφ = cos(φ)
        let n = a / (1 - e2 * sinφ * sinφ).squareRoot()
        // The height along the normal, from whichever of the two forms is better conditioned here.
        let h = abs(cosφ) > abs(sinφ) ? ρ / cosφ - n : p.z / sinφ - n * (1 - e2)
        return GeodeticPosition(latitude: φ * 180 / .pi, longitude: λ * 180 / .pi, height: h.isFinite ? h : -n)
    }
}
