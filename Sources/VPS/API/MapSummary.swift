/// One entry of `GET /v1/maps`.
public struct MapSummary: Sendable, Hashable, Codable, Identifiable {
    /// The id used in `LocalizeRequest.mapId` and `/v1/maps/{id}/scene`.
    public var id: String
    public var name: String
    public var keyframes: Int?
    public var points: Int?
    /// Ids of the map's sections.
    public var sections: [String]

    public init(id: String, name: String, keyframes: Int? = nil, points: Int? = nil, sections: [String] = []) {
        self.id = id; self.name = name; self.keyframes = keyframes; self.points = points; self.sections = sections
    }
}

/// The body of `GET /v1/maps`: `{"maps": [...]}`.
public struct MapList: Sendable, Hashable, Codable {
    public var maps: [MapSummary]
    public init(maps: [MapSummary]) { self.maps = maps }
}

/// The body of `GET /healthz`: `{"status": "ok", ...}`; `"stopping"` (HTTP 503) while the
/// server drains for shutdown.
public struct HealthStatus: Sendable, Hashable, Codable {
    public var status: String
    public var version: String
    public var mapsLoaded: Int
    public var uptimeSeconds: Double

    public init(status: String, version: String, mapsLoaded: Int, uptimeSeconds: Double) {
        self.status = status; self.version = version; self.mapsLoaded = mapsLoaded; self.uptimeSeconds = uptimeSeconds
    }
}
