import Foundation

/// A position on or near the earth in WGS 84 geodetic coordinates (EPSG:4979).
///
/// - `latitude`: degrees, −90…90, north positive; geodetic (the angle of the ellipsoid's
///   normal with the equator), which is what GPS receivers report.
/// - `longitude`: degrees, east positive, −180…180.
/// - `height`: metres above the WGS 84 *ellipsoid*, not above sea level: the two differ by
///   the geoid undulation, −106…+85 m depending on the place (a phone's `altitude` through
///   the W3C geolocation API is ellipsoidal; an EXIF `GPSAltitude` is above sea level).
///
/// JSON: `{"latitude": 53.8, "longitude": 2.1, "height": 73.0}`.
public struct GeodeticPosition: Sendable, Hashable, Codable {
    public var latitude: Double
    public var longitude: Double
    public var height: Double

    public init(latitude: Double, longitude: Double, height: Double = 0) {
        self.latitude = latitude; self.longitude = longitude; self.height = height
    }

    /// Why these numbers are not a position (out of range or not finite), or nil when they are.
    public var problem: String? {
        guard latitude.isFinite, longitude.isFinite, height.isFinite else {
            return "latitude \(latitude), longitude \(longitude) and height \(height) must be finite"
        }
        guard (-90...90).contains(latitude) else { return "latitude \(latitude)° is outside −90…90°" }
        guard (-180...180).contains(longitude) else { return "longitude \(longitude)° is outside −180…180°" }
        return nil
    }

    private enum CodingKeys: String, CodingKey { case latitude, longitude, height }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(latitude: try c.decode(Double.self, forKey: .latitude),
                  longitude: try c.decode(Double.self, forKey: .longitude),
                  height: try c.decode(Double.self, forKey: .height))
        if let problem {
            throw DecodingError.dataCorrupted(.init(codingPath: c.codingPath, debugDescription: problem))
        }
    }
}
