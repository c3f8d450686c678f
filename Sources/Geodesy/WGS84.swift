/// The WGS 84 ellipsoid (EPSG:7030), the reference of GPS positions and of GeoPose.
///
/// Defined by its semi-major axis and inverse flattening; every other figure follows from
/// those two. Lengths are in metres.
public enum WGS84 {
    /// Equatorial radius a, metres.
    public static let semiMajorAxis = 6_378_137.0
    /// 1/f.
    public static let inverseFlattening = 298.257_223_563
    /// f = (a − b) / a.
    public static let flattening = 1 / inverseFlattening
    /// Polar radius b = a (1 − f), metres (6 356 752.314 245…).
    public static let semiMinorAxis = semiMajorAxis * (1 - flattening)
    /// First eccentricity squared, e² = f (2 − f) = (a² − b²) / a².
    public static let eccentricitySquared = flattening * (2 - flattening)
}
