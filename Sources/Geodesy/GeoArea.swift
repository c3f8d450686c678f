import Foundation

/// The part of the earth a map covers: a circle about `centre` of `radius` metres holding
/// the map's camera positions (its keyframes). A phone whose GPS reading lies within the
/// circle, give or take the reading's accuracy and how far a camera sees, may be looking
/// at the map.
public struct GeoArea: Sendable, Hashable, Codable {
    public var centre: GeodeticPosition
    /// Metres, horizontally.
    public var radius: Double

    public init(centre: GeodeticPosition, radius: Double) { self.centre = centre; self.radius = radius }

    /// The area of `mapPoints` (e.g. keyframe centres) under `georeference`: their centroid
    /// and the horizontal distance to the farthest; nil without points.
    public init?(mapPoints: [SIMD3<Double>], georeference: Georeference) {
        let enu = mapPoints.map(georeference.enu(ofMapPoint:)).filter { $0.x.isFinite && $0.y.isFinite && $0.z.isFinite }
        guard !enu.isEmpty else { return nil }
        let mean = enu.reduce(.zero, +) / Double(enu.count)
        let radius = enu.map { p in ((p.x - mean.x) * (p.x - mean.x) + (p.y - mean.y) * (p.y - mean.y)).squareRoot() }.max()!
        self.init(centre: georeference.frame.position(ofENU: mean), radius: radius)
    }

    /// Horizontal distance in metres from `position` to the area's edge (0 inside it).
    public func distance(to position: GeodeticPosition) -> Double {
        max(0, centre.horizontalDistance(to: position) - radius)
    }
}
