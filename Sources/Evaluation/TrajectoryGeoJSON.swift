import Foundation
import VPSModel

/// A run's GeoPoses as GeoJSON (RFC 7946), for QGIS, geojson.io or any map: the path as one
/// LineString through the localized frames in time order, and each localized frame as a
/// Point with its id, time, height and accuracy. Coordinates are longitude, latitude (WGS
/// 84, as GeoJSON requires); heights are metres above the ellipsoid, in the properties.
public enum TrajectoryGeoJSON {
    /// The document, or nil when no frame has a GeoPose (the map is not georeferenced, or
    /// nothing was localized).
    public static func document<Outcomes: Sequence<FrameOutcome>>(_ outcomes: Outcomes) -> Data? {
        let placed = outcomes.lazy.filter { $0.result.geoPose != nil }.sorted { $0.timestamp < $1.timestamp }
        guard !placed.isEmpty else { return nil }
        func coordinate(_ o: FrameOutcome) -> [Double] {
            let p = o.result.geoPose!.position
            return [p.longitude, p.latitude]
        }
        var features: [[String: Any]] = []
        if placed.count >= 2 {
            features.append(["type": "Feature", "properties": ["kind": "path", "frames": placed.count],
                             "geometry": ["type": "LineString", "coordinates": placed.map(coordinate)]])
        }
        for o in placed {
            let g = o.result.geoPose!
            var properties: [String: Any] = ["kind": "frame", "frameId": o.frameId, "timestamp": o.timestamp,
                                             "height": g.position.height,
                                             "quaternion": [g.quaternion.x, g.quaternion.y, g.quaternion.z, g.quaternion.w]]
            if let a = o.result.geoAccuracy {
                properties["accuracy"] = a.position
                properties["rotationAccuracyDegrees"] = a.rotationDegrees
            }
            features.append(["type": "Feature", "properties": properties,
                             "geometry": ["type": "Point", "coordinates": coordinate(o)]])
        }
        let collection: [String: Any] = ["type": "FeatureCollection", "features": features]
        return try? JSONSerialization.data(withJSONObject: collection, options: [.sortedKeys])
    }
}
