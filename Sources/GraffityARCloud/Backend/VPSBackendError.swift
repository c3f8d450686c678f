/// Why a `VPSBackend` call failed, split into the failures worth retrying and those that
/// will not get better by themselves.
///
/// Transient (retried by `RetryingBackend` until its budget is spent): `.connectionFailed`,
/// `.timedOut`, `.serverError` (any 5xx, 503 included) and `.throttled` (408, 429).
/// Terminal (surface at once): everything else.
public enum VPSBackendError: Error, Sendable, Hashable, CustomStringConvertible {
    /// No answer: connection refused, reset, dropped, host unknown.
    case connectionFailed(String)
    /// No answer in time.
    case timedOut(String)
    /// The service answered 5xx (503 while it is overloaded or draining, for example).
    case serverError(status: Int, message: String)
    /// The service asked to slow down (HTTP 408 or 429).
    case throttled(status: Int, message: String)

    /// HTTP 401: the access token is missing, unknown, expired or revoked.
    case unauthorized(String)
    /// HTTP 403: the token is valid but may not use this map.
    case forbidden(String)
    /// HTTP 404 or an embedded store without it: the map does not exist.
    case mapNotFound(mapId: String)
    /// Another 4xx: the service refused the request as malformed or unacceptable.
    case rejected(status: Int, message: String)
    /// The service answered something this client cannot understand.
    case invalidResponse(String)
    /// The request could not be sent at all (a malformed server URL or token, say).
    case invalidRequest(String)
    /// The backend cannot serve at all in this build or configuration (for example the
    /// embedded localizer before it is linked in).
    case unavailable(String)

    /// Transient failures went on until the retry policy gave up.
    indirect case retriesExhausted(attempts: Int, lastError: VPSBackendError)

    /// True when trying again later may succeed.
    public var isTransient: Bool {
        switch self {
        case .connectionFailed, .timedOut, .serverError, .throttled: return true
        case .unauthorized, .forbidden, .mapNotFound, .rejected, .invalidResponse, .invalidRequest,
             .unavailable, .retriesExhausted:
            return false
        }
    }

    /// Classifies an HTTP error status; nil for a status that is not an error.
    public init?(httpStatus status: Int, message: String, mapId: String) {
        switch status {
        case 401: self = .unauthorized(message)
        case 403: self = .forbidden(message)
        case 404: self = .mapNotFound(mapId: mapId)
        case 408, 429: self = .throttled(status: status, message: message)
        case 400..<500: self = .rejected(status: status, message: message)
        case 500..<600: self = .serverError(status: status, message: message)
        default: return nil
        }
    }

    /// The failure in one line, for logs and `ARCloudError` messages.
    public var description: String {
        switch self {
        case .connectionFailed(let m): return "connection failed: \(m)"
        case .timedOut(let m): return "timed out: \(m)"
        case .serverError(let s, let m): return "server error \(s): \(m)"
        case .throttled(let s, let m): return "throttled (\(s)): \(m)"
        case .unauthorized(let m): return "unauthorized: \(m)"
        case .forbidden(let m): return "forbidden: \(m)"
        case .mapNotFound(let id): return "map '\(id)' not found"
        case .rejected(let s, let m): return "request rejected (\(s)): \(m)"
        case .invalidResponse(let m): return "invalid response: \(m)"
        case .invalidRequest(let m): return "invalid request: \(m)"
        case .unavailable(let m): return "backend unavailable: \(m)"
        case .retriesExhausted(let n, let last): return "gave up after \(n) attempts; last: \(last)"
        }
    }
}
