import VPSModel

/// A request the service refuses: HTTP status, stable code, plain-words message, and any
/// extra headers (`WWW-Authenticate`, `Allow`, `Retry-After`).
struct APIError: Error, Sendable {
    var status: Int
    var code: String
    var message: String
    var headers: [(String, String)] = []

    static func badRequest(_ code: String, _ message: String) -> APIError {
        APIError(status: 400, code: code, message: message)
    }

    static func unauthorized(_ code: String, _ message: String) -> APIError {
        // RFC 6750 §3: a missing token gets the bare challenge, a bad one says why.
        let challenge = code == "missing_token"
            ? "Bearer realm=\"arcloud\""
            : "Bearer realm=\"arcloud\", error=\"invalid_token\", error_description=\"\(message.replacingQuotes)\""
        return APIError(status: 401, code: code, message: message, headers: [("WWW-Authenticate", challenge)])
    }

    static func forbidden(_ message: String) -> APIError {
        APIError(status: 403, code: "insufficient_scope", message: message)
    }

    static func unprocessable(_ code: String, _ message: String) -> APIError {
        APIError(status: 422, code: code, message: message)
    }

    static func unavailable(_ message: String) -> APIError {
        APIError(status: 503, code: "unavailable", message: message, headers: [("Retry-After", "1")])
    }

    init(status: Int, code: String, message: String, headers: [(String, String)] = []) {
        self.status = status; self.code = code; self.message = message; self.headers = headers
    }

    init(_ engineError: LocalizationEngineError) {
        switch engineError {
        case .unknownMap: self.init(status: 404, code: "unknown_map", message: engineError.description)
        case .undecodableImage: self.init(status: 422, code: "undecodable_image", message: engineError.description)
        case .unprocessable(let m): self.init(status: 422, code: "unprocessable", message: m)
        case .unavailable: self = .unavailable(engineError.description)
        case .internalFailure: self.init(status: 500, code: "internal", message: engineError.description)
        case .cancelled: self = .unavailable(engineError.description)
        }
    }

    var response: HTTPResponseMessage {
        var r = HTTPResponseMessage.json(APIErrorBody(code: code, message: message), status: status)
        r.headers += headers
        return r
    }
}

private extension String {
    var replacingQuotes: String { String(map { $0 == "\"" || $0 == "\\" ? "'" : $0 }) }
}
