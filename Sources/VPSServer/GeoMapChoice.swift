import Geodesy
import VPSModel

/// Which maps a GeoPose request may be localized in, in the order they are tried: the
/// georeferenced maps the token may use whose area is within reach of the phone's GPS
/// reading, nearest first. A reading far from every map chooses none: the request is
/// refused rather than localized somewhere the phone is not, however well an image of a
/// look-alike place would match there.
///
/// Within reach: the reading lies no farther from the map's area (`GeoArea`, its cameras'
/// circle) than the reading's own accuracy (probability 0.95) plus `viewingReach`, how far from its
/// mapped positions a camera may stand and still see the mapped scene.
struct GeoMapChoice: Sendable {
    /// Metres beyond a map's area from which a phone may still see it.
    var viewingReach = LocationPrior.defaultReachMetres
    /// Maps tried for one request at most: each try is a full localization.
    var maxMaps = 4

    /// The ids to try, best first; empty when none is within reach (or, without a reading,
    /// when the service holds no georeferenced map).
    func candidates(_ maps: [MapSummary], reading: GPSReading?) -> [String] {
        let placed = maps.compactMap { m -> (id: String, area: GeoArea)? in
            guard m.georeference != nil, let area = m.area else { return nil }
            return (m.id, area)
        }
        guard let reading else { return Array(placed.map(\.id).prefix(maxMaps)) }
        return placed
            .map { (id: $0.id, distance: $0.area.distance(to: reading.position)) }
            .filter { $0.distance <= reading.accuracy + viewingReach }
            .sorted { ($0.distance, $0.id) < ($1.distance, $1.id) }
            .prefix(maxMaps).map(\.id)
    }
}
