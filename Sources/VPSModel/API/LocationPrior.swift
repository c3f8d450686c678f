import Geodesy

/// Where the camera is believed to be, in map coordinates: a centre and a radius around
/// it. The localizer searches the keyframes taken within the radius first, and only those
/// when they place the frame (`Localizer.localize(…, near:)`).
///
/// A prior narrows the search; it never bends the pose. The pose comes from the image
/// alone: when the keyframes within the radius do not place the frame, or when there are
/// none, the whole map is searched as without a prior, and the answer says so
/// (`LocationPriorUse`). A wrong prior therefore costs time, never a wrong pose.
///
/// JSON form (the `near` field of `POST /v1/localize`): `{"position": [x, y, z], "radius": r}`,
/// map units.
public struct LocationPrior: Sendable, Hashable, Codable {
    /// The believed camera position, map coordinates.
    public var center: SIMD3<Double>
    /// Map units: the keyframes whose centres lie this close to `center` are searched first.
    public var radius: Double
    /// The map's up direction (unit, map coordinates), when the prior measures distance
    /// horizontally only: GPS heights are often tens of metres off. nil: the localizer
    /// measures horizontally when it knows the map's up, else in 3D.
    public var up: SIMD3<Double>?

    public init(center: SIMD3<Double>, radius: Double, up: SIMD3<Double>? = nil) {
        self.center = center; self.radius = radius; self.up = up
    }

    /// The prior a GPS reading gives in a georeferenced map: the reading's position in map
    /// coordinates, and a radius of its accuracy (probability 0.95) plus `reachMetres`, how
    /// far from the camera a keyframe may have been taken and still show what it sees.
    /// Distance is horizontal, about the georeference's up.
    public init(reading: GPSReading, georeference: Georeference, reachMetres: Double) {
        center = georeference.mapPoint(of: reading.position)
        radius = (reading.accuracy + reachMetres) / georeference.scale
        up = georeference.rotation.conjugate.rotate(SIMD3(0, 0, 1))
    }

    /// The prior of a GPS reading in a map with this georeference (reach
    /// `defaultReachMetres`); nil without a reading or without a georeference, when a
    /// reading cannot be related to the map.
    public init?(_ reading: GPSReading?, georeference: Georeference?) {
        guard let reading, let georeference else { return nil }
        self.init(reading: reading, georeference: georeference, reachMetres: Self.defaultReachMetres)
    }

    /// Metres from a camera within which a keyframe may have been taken and still show
    /// what the camera sees: a street's facades, a square, a hall (the service's choice of
    /// maps by GPS uses the same reach).
    public static let defaultReachMetres = 50.0

    /// Why this prior cannot be used, or nil.
    public var problem: String? {
        guard center.x.isFinite, center.y.isFinite, center.z.isFinite else { return "near.position must be three finite numbers" }
        guard radius.isFinite, radius > 0 else { return "near.radius must be positive and finite" }
        if let u = up, !(u.x.isFinite && u.y.isFinite && u.z.isFinite && (u * u).sum() > 0) {
            return "the prior's up direction must be finite and not zero"
        }
        return nil
    }

    /// The distance from `center` to `point`: horizontal about `up` (or `mapUp` when the
    /// prior has none), else in 3D.
    public func distance(to point: SIMD3<Double>, mapUp: SIMD3<Double>? = nil) -> Double {
        var d = point - center
        if let u = up ?? mapUp {
            let n = u / (u * u).sum().squareRoot()
            d -= (d * n).sum() * n
        }
        return (d * d).sum().squareRoot()
    }

    private enum CodingKeys: String, CodingKey { case position, radius }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let p = try c.decode([Double].self, forKey: .position)
        guard p.count == 3 else {
            throw DecodingError.dataCorruptedError(forKey: .position, in: c, debugDescription: "near.position must be [x, y, z]")
        }
        center = SIMD3(p[0], p[1], p[2])
        radius = try c.decode(Double.self, forKey: .radius)
        up = nil
        if let why = problem { throw DecodingError.dataCorruptedError(forKey: .radius, in: c, debugDescription: why) }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode([center.x, center.y, center.z], forKey: .position)
        try c.encode(radius, forKey: .radius)
    }
}

/// What a location prior did for one frame.
public enum LocationPriorUse: String, Sendable, Hashable, Codable {
    /// The keyframes within the prior placed the frame; the rest of the map, if there is
    /// any beyond the prior, was not searched.
    case narrowed
    /// No keyframe lies within the prior: it was ignored and the whole map searched.
    case outsideMap
    /// The keyframes within the prior did not place the frame: the whole map was searched,
    /// as without a prior (a frame placed then lies where the image says, not the prior).
    case notConfirmed
}
