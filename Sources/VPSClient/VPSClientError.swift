/// Why a `VPSClient` call failed.
///
/// Transport failures (the server could not be reached or the exchange broke off) are kept
/// apart from HTTP status errors (the server answered, with an error) so that a caller can
/// retry the transient ones and stop on terminal ones (see `isTransient`).
public enum VPSClientError: Error, Sendable, Hashable, CustomStringConvertible {
    /// No usable HTTP response: connection refused, reset, timed out, DNS failure, ...
    case transport(TransportFailure)
    /// The server answered with a non-2xx status and (usually) a JSON error body.
    case http(status: Int, code: String, message: String)
    /// The server answered 2xx but the body was not the JSON this call expects.
    case invalidResponse(status: Int, message: String)
    /// The call was not made: a bad base URL or an argument that cannot be sent.
    case invalidRequest(String)

    /// What went wrong below HTTP.
    public struct TransportFailure: Sendable, Hashable, CustomStringConvertible {
        public enum Kind: String, Sendable, Hashable {
            case connectionRefused, timedOut, connectionLost, hostNotFound, other
        }
        public var kind: Kind
        /// The libcurl result code (`CURLcode`).
        public var curlCode: Int
        public var message: String

        public init(kind: Kind, curlCode: Int, message: String) {
            self.kind = kind; self.curlCode = curlCode; self.message = message
        }

        public var description: String { "\(kind.rawValue) (curl \(curlCode)): \(message)" }
    }

    /// The HTTP status of an `.http` or `.invalidResponse` error, else nil.
    public var httpStatus: Int? {
        switch self {
        case .http(let s, _, _), .invalidResponse(let s, _): return s
        default: return nil
        }
    }

    /// True when trying again later may succeed: every transport failure, and the statuses
    /// that mean "not now" (408, 429, 502, 503, 504).
    public var isTransient: Bool {
        switch self {
        case .transport: return true
        case .http(let s, _, _): return [408, 429, 502, 503, 504].contains(s)
        case .invalidResponse, .invalidRequest: return false
        }
    }

    /// True for HTTP 401: the token is missing, unknown, expired or revoked.
    public var isAuthenticationFailure: Bool { httpStatus == 401 }

    public var description: String {
        switch self {
        case .transport(let t): return "transport failure: \(t)"
        case .http(let s, let c, let m): return "HTTP \(s) \(c): \(m)"
        case .invalidResponse(let s, let m): return "invalid response (HTTP \(s)): \(m)"
        case .invalidRequest(let m): return "invalid request: \(m)"
        }
    }
}
