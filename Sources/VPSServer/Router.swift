/// The service's endpoints and how a method + path maps onto them.
enum Endpoint: Hashable, Sendable {
    case localize
    /// The OSCP GeoPose protocol: a JSON request with the image in base64; the map is the
    /// georeferenced one near the phone's GPS reading.
    case geoPose
    case maps
    case scene(mapId: String)
    case health
    case metrics

    /// The route template: the `route` label of metrics and the access log. Never contains
    /// client-chosen text, so metric cardinality stays bounded.
    var route: String {
        switch self {
        case .localize: return "/v1/localize"
        case .geoPose: return "/scrs/geopose"
        case .maps: return "/v1/maps"
        case .scene: return "/v1/maps/{id}/scene"
        case .health: return "/healthz"
        case .metrics: return "/metrics"
        }
    }

    /// Methods the endpoint answers (HEAD wherever GET is allowed).
    var allowedMethods: [String] {
        switch self {
        case .localize, .geoPose: return ["POST"]
        default: return ["GET", "HEAD"]
        }
    }

    /// Whether a bearer token is required.
    var requiresToken: Bool {
        switch self {
        case .localize, .geoPose, .maps, .scene: return true
        case .health, .metrics: return false
        }
    }
}

/// Matches requests to endpoints: unknown paths are 404, known paths with a method they do
/// not answer are 405 with an `Allow` header.
enum Router {
    /// Route label used for requests that matched no endpoint.
    static let unmatchedRoute = "unmatched"

    /// The route template `path` belongs to whatever the method, for labelling a 405.
    static func route(path: String) -> String? {
        if case .success(let e) = endpoint(method: "GET", path: path) { return e.route }
        if case .success(let e) = endpoint(method: "POST", path: path) { return e.route }
        return nil
    }

    static func endpoint(method: String, path: String) -> Result<Endpoint, APIError> {
        let segments = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
        let parts = Array(segments)
        let found: Endpoint?
        switch parts.count {
        case 1 where parts[0] == "healthz": found = .health
        case 1 where parts[0] == "metrics": found = .metrics
        case 2 where parts[0] == "v1" && parts[1] == "localize": found = .localize
        case 2 where parts[0] == "scrs" && parts[1] == "geopose": found = .geoPose
        case 2 where parts[0] == "v1" && parts[1] == "maps": found = .maps
        case 4 where parts[0] == "v1" && parts[1] == "maps" && parts[3] == "scene" && !parts[2].isEmpty:
            found = .scene(mapId: String(parts[2]))
        default: found = nil
        }
        guard path.hasPrefix("/"), let endpoint = found else {
            return .failure(APIError(status: 404, code: "unknown_route", message: "no route for \(method) \(path.prefix(200))"))
        }
        guard endpoint.allowedMethods.contains(method) else {
            let allow = endpoint.allowedMethods.joined(separator: ", ")
            return .failure(APIError(status: 405, code: "method_not_allowed",
                                     message: "\(endpoint.route) answers \(allow), not \(method.prefix(20))",
                                     headers: [("Allow", allow)]))
        }
        return .success(endpoint)
    }
}
