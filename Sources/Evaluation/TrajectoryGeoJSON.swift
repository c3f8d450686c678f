import Foundation
import VPSModel

/// A run's GeoPoses as GeoJSON (RFC 7946), for QGIS, geojson.io or any map: the path as one
/// LineString through the localized frames in time order, and each localized frame as a
/// Point with its id, time, height and accuracy. Coordinates are longitude, latitude (WGS
/// 84, as GeoJSON requires); heights are metres above the ellipsoid, in the properties.
///
/// Written a feature at a time (each as `JSONSerialization` writes it, sorted keys), so a
/// long run's document is never held: the same bytes as the whole collection serialized at
/// once. Frames are in time order; a run whose timestamps already rise frame by frame (any
/// valid session) is read in frame order, others through an index sorted by time.
public enum TrajectoryGeoJSON {
    /// The document, or nil when no frame has a GeoPose (the map is not georeferenced, or
    /// nothing was localized).
    public static func document<Outcomes: Collection<FrameOutcome>>(_ outcomes: Outcomes) -> Data? {
        var data = Data()
        let written = try? write(outcomes) { data.append($0) }
        return written == true ? data : nil
    }

    /// Hands the document to `out` a part at a time; false (nothing written) when no frame
    /// has a GeoPose.
    public static func write<Outcomes: Collection<FrameOutcome>>(_ outcomes: Outcomes,
                                                                 to out: (Data) throws -> Void) throws -> Bool {
        var placed = 0, inTimeOrder = true, lastTime = -Double.infinity
        for o in outcomes where o.result.geoPose != nil {
            placed += 1
            if o.timestamp < lastTime { inTimeOrder = false }
            lastTime = o.timestamp
        }
        guard placed > 0 else { return false }
        // Frame order when it is time order; otherwise the order a stable sort by time gives.
        let order: [Outcomes.Index]? = inTimeOrder ? nil
            : outcomes.indices.filter { outcomes[$0].result.geoPose != nil }.sorted { outcomes[$0].timestamp < outcomes[$1].timestamp }
        func forEachPlaced(_ body: (FrameOutcome) throws -> Void) rethrows {
            if let order {
                for i in order { try body(outcomes[i]) }
            } else {
                for o in outcomes where o.result.geoPose != nil { try body(o) }
            }
        }
        func json(_ object: Any) throws -> Data { try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]) }
        try out(Data("{\"features\":[".utf8))
        if placed >= 2 {
            try out(Data("{\"geometry\":{\"coordinates\":[".utf8))
            var first = true
            try forEachPlaced { o in
                let p = o.result.geoPose!.position
                try out((first ? Data() : Data(",".utf8)) + json([p.longitude, p.latitude]))
                first = false
            }
            try out(Data("],\"type\":\"LineString\"},\"properties\":".utf8) + json(["kind": "path", "frames": placed])
                    + Data(",\"type\":\"Feature\"}".utf8))
        }
        var first = placed < 2
        try forEachPlaced { o in
            let g = o.result.geoPose!
            var properties: [String: Any] = ["kind": "frame", "frameId": o.frameId, "timestamp": o.timestamp,
                                             "height": g.position.height,
                                             "quaternion": [g.quaternion.x, g.quaternion.y, g.quaternion.z, g.quaternion.w]]
            if let a = o.result.geoAccuracy {
                properties["accuracy"] = a.position
                properties["rotationAccuracyDegrees"] = a.rotationDegrees
            }
            let feature: [String: Any] = ["type": "Feature", "properties": properties,
                                          "geometry": ["type": "Point", "coordinates": [g.position.longitude, g.position.latitude]]]
            try out((first ? Data() : Data(",".utf8)) + json(feature))
            first = false
        }
        try out(Data("],\"type\":\"FeatureCollection\"}".utf8))
        return true
    }
}
