/// One GPS fix as the W3C geolocation API reports it (`GeolocationCoordinates`).
///
/// - `position`: latitude, longitude and `altitude` (the W3C API's altitude is height above
///   the WGS 84 ellipsoid, as `GeodeticPosition.height`).
/// - `accuracy`: metres, the radius of the circle holding the horizontal position with
///   probability 0.95 (W3C `accuracy`). Android's `Location.getAccuracy()` holds it with
///   probability 0.68: give it ×1.73 here.
/// - `altitudeAccuracy`: metres, the bound on the height's error at probability 0.95 (W3C
///   `altitudeAccuracy`), nil when the device does not state one.
///
/// JSON, with the W3C member names (what `session.json` frames and the service's requests
/// carry): `{"latitude": 52.37, "longitude": 4.89, "altitude": 2.5, "accuracy": 8,
/// "altitudeAccuracy": 15}`; `altitude` and `altitudeAccuracy` may be left out (a missing
/// altitude is taken as 0 with no altitude accuracy: the height then carries no weight).
public struct GPSReading: Sendable, Hashable, Codable {
    public var position: GeodeticPosition
    public var accuracy: Double
    public var altitudeAccuracy: Double?

    public init(position: GeodeticPosition, accuracy: Double, altitudeAccuracy: Double? = nil) {
        self.position = position; self.accuracy = accuracy; self.altitudeAccuracy = altitudeAccuracy
    }

    /// The accuracies a reading may state, metres: from a surveyed point's millimetre to
    /// a cell tower's kilometres (with room to spare); outside, their squared inverses, the
    /// fit's weights, would leave double precision.
    public static let accuracyRange: ClosedRange<Double> = 0.001...1_000_000

    /// Why the fit cannot use this reading (a bad position, an accuracy outside
    /// `accuracyRange`), or nil.
    public var problem: String? {
        if let p = position.problem { return p }
        guard Self.accuracyRange.contains(accuracy) else { return "accuracy \(accuracy) m is outside 0.001…1000000 m" }
        if let a = altitudeAccuracy, !Self.accuracyRange.contains(a) {
            return "altitude accuracy \(a) m is outside 0.001…1000000 m"
        }
        return nil
    }

    /// The standard deviation of each horizontal coordinate (east, north), metres: a 0.95
    /// circle of a circular normal error has radius √(−2 ln 0.05) ≈ 2.4477 σ.
    public var horizontalSigma: Double { accuracy / 2.447_746_830_680_816 }

    /// The standard deviation of the height, metres, from `altitudeAccuracy` or, when the
    /// reading has none, from `defaultAltitudeAccuracy` (both at probability 0.95, ≈ 1.96 σ).
    public func verticalSigma(defaultAltitudeAccuracy: Double) -> Double {
        (altitudeAccuracy ?? defaultAltitudeAccuracy) / 1.959_963_984_540_054
    }
}

extension GPSReading {
    private enum CodingKeys: String, CodingKey { case latitude, longitude, altitude, accuracy, altitudeAccuracy }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let altitude = try c.decodeIfPresent(Double.self, forKey: .altitude)
        self.init(position: GeodeticPosition(latitude: try c.decode(Double.self, forKey: .latitude),
                                             longitude: try c.decode(Double.self, forKey: .longitude),
                                             height: altitude ?? 0),
                  accuracy: try c.decode(Double.self, forKey: .accuracy),
                  altitudeAccuracy: altitude == nil ? nil : try c.decodeIfPresent(Double.self, forKey: .altitudeAccuracy))
        if let p = problem {
            throw DecodingError.dataCorrupted(.init(codingPath: c.codingPath, debugDescription: "not a GPS reading: \(p)"))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(position.latitude, forKey: .latitude)
        try c.encode(position.longitude, forKey: .longitude)
        try c.encode(position.height, forKey: .altitude)
        try c.encode(accuracy, forKey: .accuracy)
        try c.encodeIfPresent(altitudeAccuracy, forKey: .altitudeAccuracy)
    }
}
