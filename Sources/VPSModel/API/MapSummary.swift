import Geodesy

/// One entry of `GET /v1/maps`.
public struct MapSummary: Sendable, Hashable, Codable, Identifiable {
    /// The id used in `LocalizeRequest.mapId` and `/v1/maps/{id}/scene`.
    public var id: String
    public var name: String
    public var keyframes: Int?
    public var points: Int?
    /// Ids of the map's sections.
    public var sections: [String]
    /// The map's content version: the SHA-256 of its file in hexadecimal. It changes when
    /// the file is replaced, so a client sees a rollout (and which replicas have it).
    public var version: String?
    /// Where the map lies on the earth, when it is georeferenced.
    public var georeference: Georeference?
    /// The area its cameras covered, when it is georeferenced: what `POST /scrs/geopose`
    /// compares a phone's GPS reading with.
    public var area: GeoArea?
    /// The unit of its coordinates, `metres` or `unknown` (a COLMAP model's arbitrary
    /// scale): what a client scoring poses against ground truth needs to know. Absent from
    /// services that predate it.
    public var units: String?

    public init(id: String, name: String, keyframes: Int? = nil, points: Int? = nil, sections: [String] = [],
                version: String? = nil, georeference: Georeference? = nil, area: GeoArea? = nil, units: String? = nil) {
        self.id = id; self.name = name; self.keyframes = keyframes; self.points = points; self.sections = sections
        self.version = version; self.georeference = georeference; self.area = area; self.units = units
    }
}

/// The body of `GET /v1/maps`: `{"maps": [...]}`.
public struct MapList: Sendable, Hashable, Codable {
    public var maps: [MapSummary]
    public init(maps: [MapSummary]) { self.maps = maps }
}

/// The body of `GET /healthz`: `{"status": "ok", ...}`; `"draining"` (HTTP 503) after
/// SIGTERM/SIGINT, while the server answers the requests it already has before exiting.
public struct HealthStatus: Sendable, Hashable, Codable {
    public var status: String
    public var version: String
    public var mapsLoaded: Int
    public var uptimeSeconds: Double

    public init(status: String, version: String, mapsLoaded: Int, uptimeSeconds: Double) {
        self.status = status; self.version = version; self.mapsLoaded = mapsLoaded; self.uptimeSeconds = uptimeSeconds
    }
}
