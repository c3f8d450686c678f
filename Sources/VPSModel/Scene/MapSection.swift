/// A named part of a map (a room, a corridor): the `sectionId` reported on localization.
public struct MapSection: Sendable, Hashable, Codable, Identifiable {
    public var id: String
    public var name: String
    /// Axis-aligned bounds in the map frame, when known.
    public var boundsMin: SIMD3<Double>?
    public var boundsMax: SIMD3<Double>?

    public init(id: String, name: String, boundsMin: SIMD3<Double>? = nil, boundsMax: SIMD3<Double>? = nil) {
        self.id = id; self.name = name; self.boundsMin = boundsMin; self.boundsMax = boundsMax
    }

    public func contains(_ p: SIMD3<Double>) -> Bool {
        guard let lo = boundsMin, let hi = boundsMax else { return false }
        return p.x >= lo.x && p.y >= lo.y && p.z >= lo.z && p.x <= hi.x && p.y <= hi.y && p.z <= hi.z
    }
}
