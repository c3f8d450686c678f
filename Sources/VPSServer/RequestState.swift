import Foundation

/// Everything known about one request while libmicrohttpd delivers it in several
/// callbacks. Created on the first callback, released in the completion callback. Only the
/// connection's thread touches it.
final class RequestState: @unchecked Sendable {
    let method: String
    let path: String
    let headers: [String: String]
    let started: ContinuousClock.Instant
    /// Matched endpoint, nil for unmatched routes.
    var endpoint: Endpoint?
    var grant: TokenGrant?
    /// The body received so far (only kept for endpoints that take one).
    var body: [UInt8] = []
    var bodyBytesSeen = 0
    /// The multipart boundary of a localization, read from the headers when they arrive.
    var boundary: String?
    /// `Content-Length`, once checked to be a byte count within `bodyLimit`.
    var declaredLength: Int?
    let bodyLimit: Int
    /// Set when the response was decided before the whole body was read.
    var earlyResponse: HTTPResponseMessage?
    /// The connection's deadline record (nil when the connection was not registered).
    var connection: ConnectionRecord?
    /// Answer with `Connection: close` (set while draining: the connection takes no more requests).
    var closeAfterAnswer = false
    var responseQueued = false
    var status = 0
    var mapId: String?
    var outcome = "ok"

    init(method: String, path: String, headers: [String: String], bodyLimit: Int) {
        self.method = method; self.path = path; self.headers = headers; self.bodyLimit = bodyLimit
        started = ContinuousClock.now
    }

    /// The route label of metrics and the access log: the matched route, also for a
    /// method the route does not answer (405).
    var routeLabel: String?

    var route: String { endpoint?.route ?? routeLabel ?? Router.unmatchedRoute }
}
