import Foundation
import Synchronization
import VPS

/// The service's behaviour, independent of libmicrohttpd: decides early (from headers)
/// what it can, accumulates the body within its limit, answers each endpoint, and records
/// metrics and the access log when a request completes.
final class RequestHandler: Sendable {
    let engine: any LocalizationEngine
    let tokens: any BearerTokenVerifier
    let configuration: VPSServerConfiguration
    let metrics = ServiceMetrics()
    let accessLog: AccessLog?
    let version: String
    /// Set when shutdown begins: new requests get 503, health reports "stopping".
    let draining = Atomic<Bool>(false)
    /// Requests whose first callback ran and whose completion callback has not.
    let inFlight = Atomic<Int>(0)
    private let startedAt = ContinuousClock.now

    init(engine: any LocalizationEngine, tokens: any BearerTokenVerifier, configuration: VPSServerConfiguration,
         accessLog: AccessLog?, version: String) {
        self.engine = engine; self.tokens = tokens; self.configuration = configuration
        self.accessLog = accessLog; self.version = version
    }

    // MARK: Phases of a request

    /// First callback: headers only. Sets `earlyResponse` when the request can be refused
    /// without its body (route, method, token, scope, content type, declared length).
    func begin(method: String, path: String, headers: [String: String]) -> RequestState {
        inFlight.add(1, ordering: .relaxed)
        let state = RequestState(method: method, path: path, headers: headers, bodyLimit: configuration.maxBodyBytes)
        do {
            try screen(state)
        } catch {
            state.outcome = error.code
            state.earlyResponse = error.response
        }
        return state
    }

    private func screen(_ state: RequestState) throws(APIError) {
        if draining.load(ordering: .relaxed) {
            var e = APIError.unavailable("the server is shutting down")
            e.code = "stopping"
            throw e
        }
        let endpoint = try Router.endpoint(method: state.method, path: state.path).get()
        state.endpoint = endpoint
        if endpoint.requiresToken { state.grant = try authenticate(state.headers) }
        if case .scene(let id) = endpoint {
            state.mapId = id
            try requireScope(state.grant, id)
        }
        if let declared = state.headers["content-length"] {
            guard let n = Int(declared.trimmingSpaces), n >= 0 else {
                throw .badRequest("bad_request", "Content-Length '\(declared.prefix(40))' is not a byte count")
            }
            if n > configuration.maxBodyBytes {
                throw APIError(status: 413, code: "body_too_large",
                               message: "the body of \(n) bytes exceeds the limit of \(configuration.maxBodyBytes) bytes")
            }
        }
        if endpoint == .localize {
            do {
                _ = try MultipartFormData.boundary(contentType: state.headers["content-type"] ?? "")
            } catch {
                throw Self.apiError(error)
            }
        }
    }

    /// Upload callbacks: keeps the body of endpoints that take one, within the limit.
    /// A body that grows past the limit (chunked, or longer than declared) turns into a 413.
    func receive(_ state: RequestState, _ bytes: UnsafeRawBufferPointer) {
        state.bodyBytesSeen += bytes.count
        guard state.earlyResponse == nil else { return }
        if state.bodyBytesSeen > state.bodyLimit {
            state.body = []
            state.outcome = "body_too_large"
            state.earlyResponse = APIError(status: 413, code: "body_too_large",
                message: "the body exceeds the limit of \(state.bodyLimit) bytes").response
            return
        }
        if state.endpoint == .localize { state.body.append(contentsOf: bytes) }
    }

    /// Last callback: the whole body is in; produce the answer.
    func respond(_ state: RequestState) -> HTTPResponseMessage {
        if let early = state.earlyResponse { return early }
        guard let endpoint = state.endpoint else {
            return APIError(status: 500, code: "internal", message: "request without an endpoint").response
        }
        do throws(APIError) {
            switch endpoint {
            case .health: return health()
            case .metrics:
                return .text(metrics.render(mapsLoaded: engine.loadedMapCount, inFlight: inFlight.load(ordering: .relaxed)),
                             contentType: "text/plain; version=0.0.4; charset=utf-8")
            case .maps:
                let all = try engineCall { () throws(LocalizationEngineError) in try engine.maps() }
                return .json(MapList(maps: all.filter { state.grant?.allows(mapId: $0.id) ?? true }))
            case .scene(let id):
                return .json(try engineCall { () throws(LocalizationEngineError) in try engine.scene(mapId: id) })
            case .localize:
                let answer = try localize(state)
                state.outcome = answer.status.rawValue
                metrics.recordLocalization(outcome: answer.status.rawValue)
                return .json(answer)
            }
        } catch {
            state.outcome = error.code
            if endpoint == .localize, error.status >= 422 || error.status == 404 { metrics.recordLocalization(outcome: "failed") }
            return error.response
        }
    }

    /// Right after a response is queued: metrics and the access log are written now, so
    /// that they are up to date by the time the client has read its answer.
    func responded(_ state: RequestState) {
        record(state, status: state.status)
    }

    /// Completion callback: the connection is done with this request (answered, timed
    /// out, aborted or shut down). Requests that never got a response are recorded here,
    /// with status 0 and the reason as outcome.
    func complete(_ state: RequestState, endedEarly reason: String?) {
        inFlight.subtract(1, ordering: .relaxed)
        if !state.responseQueued {
            state.outcome = reason ?? "aborted"
            record(state, status: 0)
        }
    }

    private func record(_ state: RequestState, status: Int) {
        let seconds = (ContinuousClock.now - state.started).seconds
        metrics.recordRequest(route: state.route, method: state.method, status: status, seconds: seconds)
        accessLog?.record(AccessLogEntry(
            time: AccessLog.timestamp(Date()), method: String(state.method.prefix(16)), route: state.route,
            status: status, latencyMs: (seconds * 1e6).rounded() / 1e3, map: state.mapId,
            outcome: state.outcome, client: state.grant?.name, bytesIn: state.bodyBytesSeen))
    }

    // MARK: Endpoints

    private func health() -> HTTPResponseMessage {
        let stopping = draining.load(ordering: .relaxed)
        let h = HealthStatus(status: stopping ? "stopping" : "ok", version: version,
                             mapsLoaded: engine.loadedMapCount,
                             uptimeSeconds: (ContinuousClock.now - startedAt).seconds)
        return .json(h, status: stopping ? 503 : 200)
    }

    private func localize(_ state: RequestState) throws(APIError) -> LocalizeResponse {
        let parts: [MultipartFormData.Part]
        do {
            let boundary = try MultipartFormData.boundary(contentType: state.headers["content-type"] ?? "")
            parts = try MultipartFormData.parse(state.body, boundary: boundary)
        } catch {
            throw Self.apiError(error)
        }
        state.body = []                                   // the parts hold the bytes now
        let requestPart = try onePart(named: "request", in: parts)
        let imagePart = try onePart(named: "image", in: parts)
        if let t = requestPart.contentType, !["application/json", "text/plain"].contains(t) {
            throw APIError(status: 415, code: "unsupported_media_type",
                           message: "the request part must be application/json, not \(t.prefix(60))")
        }
        if let t = imagePart.contentType, !["image/jpeg", "image/png", "application/octet-stream"].contains(t) {
            throw APIError(status: 415, code: "unsupported_media_type",
                           message: "the image part must be image/jpeg or image/png, not \(t.prefix(60))")
        }
        let request: LocalizeRequest
        do {
            request = try JSONDecoder().decode(LocalizeRequest.self, from: Data(requestPart.body))
        } catch {
            throw .badRequest("malformed_json", "the request part is not a valid localize request: \(Self.describe(error))")
        }
        guard !request.mapId.isEmpty, request.mapId.count <= 200 else {
            throw .badRequest("bad_request", "mapId must be 1 to 200 characters")
        }
        state.mapId = request.mapId
        try requireScope(state.grant, request.mapId)
        if let problem = request.intrinsics.problem {
            throw .unprocessable("invalid_intrinsics", "impossible intrinsics: \(problem)")
        }
        guard let header = ImageHeader.parse(Data(imagePart.body)), header.width > 0, header.height > 0 else {
            let what = imagePart.body.isEmpty ? "the image part is empty"
                : ImageHeader.sniffFormat(imagePart.body) == nil ? "the image is neither JPEG nor PNG"
                : "the image header is truncated or malformed"
            throw .unprocessable("undecodable_image", what)
        }
        guard header.width == request.intrinsics.width, header.height == request.intrinsics.height else {
            throw .unprocessable("image_size_mismatch",
                "the image is \(header.width)x\(header.height) but the intrinsics are for "
                + "\(request.intrinsics.width)x\(request.intrinsics.height)")
        }
        let image = imagePart.body
        return try engineCall { () throws(LocalizationEngineError) in try engine.localize(image: image, request: request) }
    }

    // MARK: Helpers

    private func onePart(named name: String, in parts: [MultipartFormData.Part]) throws(APIError) -> MultipartFormData.Part {
        let found = parts.filter { $0.name == name }
        guard found.count == 1, let part = found.first else {
            throw .badRequest("missing_part", found.isEmpty ? "the form has no '\(name)' part"
                                                            : "the form has more than one '\(name)' part")
        }
        return part
    }

    private func authenticate(_ headers: [String: String]) throws(APIError) -> TokenGrant {
        guard let value = headers["authorization"] else {
            throw .unauthorized("missing_token", "no bearer token; send 'Authorization: Bearer <token>'")
        }
        let pieces = value.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard pieces.count == 2, pieces[0].lowercased() == "bearer" else {
            throw .unauthorized("invalid_token", "the Authorization header must be 'Bearer <token>'")
        }
        switch tokens.verify(token: String(pieces[1]).trimmingSpaces, now: Date()) {
        case .valid(let grant): return grant
        case .malformed: throw .unauthorized("invalid_token", "the bearer token is malformed")
        case .unknown: throw .unauthorized("invalid_token", "the bearer token is not known")
        case .expired: throw .unauthorized("invalid_token", "the bearer token has expired")
        case .revoked: throw .unauthorized("invalid_token", "the bearer token has been revoked")
        case .unavailable(let why): throw .unavailable("cannot check the token now (\(why))")
        }
    }

    private func requireScope(_ grant: TokenGrant?, _ mapId: String) throws(APIError) {
        if let grant, !grant.allows(mapId: mapId) {
            throw .forbidden("the token '\(grant.name)' may not use map '\(mapId.prefix(200))'")
        }
    }

    private func engineCall<T>(_ body: () throws(LocalizationEngineError) -> T) throws(APIError) -> T {
        do { return try body() } catch { throw APIError(error) }
    }

    private static func apiError(_ e: MultipartError) -> APIError {
        switch e {
        case .unsupportedMediaType(let m): return APIError(status: 415, code: "unsupported_media_type", message: m)
        case .malformed(let m): return .badRequest("malformed_multipart", m)
        }
    }

    /// A short account of a JSON decoding failure: what and where.
    private static func describe(_ error: Error) -> String {
        func path(_ c: [CodingKey]) -> String { c.isEmpty ? "top level" : c.map(\.stringValue).joined(separator: ".") }
        switch error as? DecodingError {
        case .keyNotFound(let k, let c): return "missing key '\(path(c.codingPath + [k]))'"
        case .typeMismatch(_, let c): return "wrong type at '\(path(c.codingPath))': \(c.debugDescription)"
        case .valueNotFound(_, let c): return "null at '\(path(c.codingPath))'"
        case .dataCorrupted(let c): return c.codingPath.isEmpty ? "not JSON" : "\(path(c.codingPath)): \(c.debugDescription)"
        default: return "\(error)"
        }
    }
}

extension Duration {
    var seconds: Double {
        let (s, atto) = components
        return Double(s) + Double(atto) * 1e-18
    }
}
