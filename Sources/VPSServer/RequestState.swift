import Foundation

/// Everything known about one request while libmicrohttpd delivers it in several
/// callbacks. Created on the first callback, released in the completion callback; only
/// the worker thread that owns the connection touches it.
final class RequestState {
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
    let bodyLimit: Int
    /// Set when the response was decided before the whole body was read.
    var earlyResponse: HTTPResponseMessage?
    var responseQueued = false
    var status = 0
    var mapId: String?
    var outcome = "ok"

    init(method: String, path: String, headers: [String: String], bodyLimit: Int) {
        self.method = method; self.path = path; self.headers = headers; self.bodyLimit = bodyLimit
        started = ContinuousClock.now
    }

    var route: String { endpoint?.route ?? Router.unmatchedRoute }
}
