import Localization
import Foundation
import Geometry
import Synchronization
import Vision
import VPSModel
import Support

/// The service's behaviour, independent of libmicrohttpd: decides early (from headers)
/// what it can, accumulates the body within its limit, answers each endpoint (running
/// localizations within the cores and the time budget), and records metrics and the access
/// log when a request completes.
final class RequestHandler: Sendable {
    let engine: any LocalizationEngine
    let tokens: any BearerTokenVerifier
    let configuration: VPSServerConfiguration
    let metrics: ServiceMetrics
    let accessLog: AccessLog?
    let version: String
    /// Set when shutdown begins: requests on open connections are still answered (with
    /// `Connection: close`), health reports "draining".
    let draining = Atomic<Bool>(false)
    /// Set when the drain timeout passed: localizations still running stop at their next
    /// stage and are answered 503 `drain_timeout`.
    let abandoning = Atomic<Bool>(false)
    /// Requests whose first callback ran and whose completion callback has not.
    let inFlight = Atomic<Int>(0)
    /// Bounds the localizations running at once to the cores; queues the rest.
    let workers: WorkerPool
    /// Head and body deadlines of open connections.
    let connections: ConnectionDeadlines
    private let startedAt = ContinuousClock.now

    /// None when configured so, or when its threads cannot start: the service then only
    /// answers a little later at low load.
    private static func idleCoreHelpers(_ configuration: VPSServerConfiguration) -> IdleCoreHelpers? {
        guard configuration.idleCoreHelpers > 0 else { return nil }
        return try? IdleCoreHelpers(threads: configuration.idleCoreHelpers, cores: configuration.localizationWorkers)
    }

    init(engine: any LocalizationEngine, tokens: any BearerTokenVerifier, configuration: VPSServerConfiguration,
         accessLog: AccessLog?, version: String) {
        self.engine = engine; self.tokens = tokens; self.configuration = configuration
        self.accessLog = accessLog; self.version = version
        metrics = ServiceMetrics(version: version)
        workers = WorkerPool(threads: configuration.localizationWorkers, queueCapacity: configuration.localizationQueue,
                             name: "arcloud-localize", helpers: Self.idleCoreHelpers(configuration))
        connections = ConnectionDeadlines(headTimeout: .milliseconds(Int(configuration.headTimeoutSeconds * 1000)),
                                          minBodyBytesPerSecond: configuration.minBodyBytesPerSecond)
    }

    /// What the last callback of a request leads to.
    enum Decision {
        /// Answer now.
        case answer(HTTPResponseMessage)
        /// Localize (`localize(_:)`), then answer.
        case localize(LocalizationJob)
    }

    /// A validated localization, ready to run.
    struct LocalizationJob: Sendable {
        var image: [UInt8]
        var request: LocalizeRequest
        /// Maps tried in turn after `request.mapId` until one localizes the image (the
        /// georeferenced maps near a GeoPose request's GPS reading).
        var otherMaps: [String] = []
        /// Set for `POST /scrs/geopose`: the request's id, and the answer is a `GeoPoseResponse`.
        var geoPoseRequestId: String?
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
        // A request that reached us before or during the drain is answered in full; the
        // connection then closes, so it brings no further requests.
        if draining.load(ordering: .relaxed) { state.closeAfterAnswer = true }
        state.routeLabel = Router.route(path: state.path)
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
            state.declaredLength = n
        }
        if endpoint == .localize {
            do {
                state.boundary = try MultipartFormData.boundary(contentType: state.headers["content-type"] ?? "")
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
        if state.endpoint == .localize || state.endpoint == .geoPose {
            // One allocation for a body of declared length (already checked against the
            // limit), not a doubling series while ~16 KB reads arrive.
            if state.body.isEmpty, let declared = state.declaredLength { state.body.reserveCapacity(declared) }
            state.body.append(contentsOf: bytes)
        }
    }

    /// Last callback: the whole body is in; answer, or hand a localization to a worker.
    func decide(_ state: RequestState) -> Decision {
        if let early = state.earlyResponse { return .answer(early) }
        guard let endpoint = state.endpoint else {
            return .answer(APIError(status: 500, code: "internal", message: "request without an endpoint").response)
        }
        do throws(APIError) {
            switch endpoint {
            case .health: return .answer(health())
            case .metrics:
                let load = workers.load
                return .answer(.text(metrics.render(gauges: .init(
                                        mapsLoaded: engine.loadedMapCount, inFlight: inFlight.load(ordering: .relaxed),
                                        workersBusy: load.running, queued: load.queued, workers: workers.threadCount,
                                        idleCoreHelpers: workers.helpers?.threadCount ?? 0,
                                        idleCoreHelperTasks: workers.helpers?.tasksRun ?? 0,
                                        mapCache: engine.mapCacheStatistics)),
                                     contentType: "text/plain; version=0.0.4; charset=utf-8"))
            case .maps:
                let all = try engineCall { () throws(LocalizationEngineError) in try engine.maps() }
                return .answer(.json(MapList(maps: all.filter { state.grant?.allows(mapId: $0.id) ?? true })))
            case .scene(let id):
                return .answer(.json(try engineCall { () throws(LocalizationEngineError) in try engine.scene(mapId: id) }))
            case .localize:
                return .localize(try prepareLocalization(state))
            case .geoPose:
                return .localize(try prepareGeoPose(state))
            }
        } catch {
            state.outcome = error.code
            if endpoint == .localize || endpoint == .geoPose, error.status >= 422 || error.status == 404 { metrics.recordLocalization(outcome: "failed") }
            return .answer(error.response)
        }
    }

    /// On the connection's thread, which waits for the answer: runs the localization right
    /// here when a core is free, else queues it for a worker (a full queue answers 503 at
    /// once). Either way the time budget, counted from now, bounds the answer: a queued
    /// localization is given up at the deadline, and a running one stops at its next stage.
    func localize(_ job: LocalizationJob) -> LocalizationAnswer {
        let received = ContinuousClock.now
        let deadline = received + .milliseconds(Int(configuration.localizationBudgetSeconds * 1000))
        let cancellation = LocalizationCancellation(deadline: deadline, when: { [self] in abandoning.load(ordering: .relaxed) })
        var here: LocalizationAnswer?
        if workers.runOnCallerIfCoreFree({ here = runLocalization(job, cancellation, received: received, startedAt: received) }),
           let here {
            return counted(here)
        }
        let queued = QueuedLocalization()
        let submitted = workers.trySubmit { [self] in
            guard queued.begin() else { return }          // given up at its deadline meanwhile
            let started = ContinuousClock.now
            metrics.recordQueueWait((started - queued.queuedAt).seconds)
            queued.finish(runLocalization(job, cancellation, received: received, startedAt: started))
        }
        guard submitted else {
            let load = workers.load
            var e = APIError.unavailable("all \(load.running) localization workers are busy and "
                                         + "\(load.queued) requests wait; retry shortly")
            e.code = "overloaded"
            metrics.recordLocalization(outcome: "failed")
            return LocalizationAnswer(response: e.response, outcome: e.code)
        }
        switch queued.wait(until: deadline) {
        case .answered(let answer): return counted(answer)
        case .deadlinePassed(let runningSince): return counted(cancelledAnswer(received: received, startedAt: runningSince))
        }
    }

    /// Counts a stopped localization as failed once, whichever party made its answer.
    private func counted(_ answer: LocalizationAnswer) -> LocalizationAnswer {
        if answer.stopped { metrics.recordLocalization(outcome: "failed") }
        return answer
    }

    /// The localization itself, its metrics, its answer.
    private func runLocalization(_ job: LocalizationJob, _ cancellation: LocalizationCancellation,
                                 received: ContinuousClock.Instant, startedAt: ContinuousClock.Instant) -> LocalizationAnswer {
        do throws(LocalizationEngineError) {
            var answer = try engine.localize(image: job.image, request: job.request, cancellation: cancellation)
            for other in job.otherMaps where answer.status != .localized {
                var request = job.request
                request.mapId = other
                answer = try engine.localize(image: job.image, request: request, cancellation: cancellation)
            }
            metrics.recordLocalization(outcome: answer.status.rawValue)
            metrics.recordStages(answer.timings)
            if let id = job.geoPoseRequestId {
                let (response, outcome) = Self.geoPoseAnswer(answer, requestId: id)
                return LocalizationAnswer(response: response, outcome: outcome)
            }
            let response = LocalizeAnswerJSON.encode(answer).map {
                HTTPResponseMessage(status: 200, contentType: "application/json", body: $0)
            } ?? .json(answer)
            return LocalizationAnswer(response: response, outcome: answer.status.rawValue)
        } catch .cancelled {
            return cancelledAnswer(received: received, startedAt: startedAt)
        } catch {
            let e = APIError(error)
            if e.status >= 422 || e.status == 404 { metrics.recordLocalization(outcome: "failed") }
            return LocalizationAnswer(response: e.response, outcome: e.code)
        }
    }

    /// The 503 of a localization stopped before its answer: `drain_timeout` when the server
    /// stopped waiting for it, else `time_budget_exceeded` with where the time went.
    private func cancelledAnswer(received: ContinuousClock.Instant, startedAt: ContinuousClock.Instant?) -> LocalizationAnswer {
        if abandoning.load(ordering: .relaxed) {
            var e = APIError.unavailable("the server stopped (drain timeout) before this localization finished")
            e.code = "drain_timeout"
            return LocalizationAnswer(response: e.response, outcome: e.code, stopped: true)
        }
        let now = ContinuousClock.now
        let waited = (now - received).seconds
        let running = startedAt.map { (now - $0).seconds }
        let e = APIError(status: 503, code: "time_budget_exceeded",
                         message: String(format: "the localization did not finish within its budget of %.1f s ", configuration.localizationBudgetSeconds)
                             + (running.map { String(format: "(queued %.2f s, running %.2f s)", waited - $0, $0) }
                                ?? String(format: "(queued %.2f s, never started)", waited)),
                         headers: [("Retry-After", "1")])
        return LocalizationAnswer(response: e.response, outcome: e.code, stopped: true)
    }

    /// Right after a response is queued: metrics and the access log are written now, so
    /// that they are up to date by the time the client has read its answer.
    func responded(_ state: RequestState) {
        record(state, status: state.status)
    }

    /// Completion callback: the connection is done with this request (answered, timed
    /// out, aborted or shut down). Requests that never got a response are recorded here,
    /// with status 0 and the reason as outcome, or with the 408 a deadline answered.
    func complete(_ state: RequestState, endedEarly reason: String?) {
        inFlight.subtract(1, ordering: .relaxed)
        if let c = state.connection { connections.requestEnded(c) }
        if !state.responseQueued {
            if let c = state.connection, let closure = connections.closure(of: c) {
                state.outcome = closure.code
                record(state, status: closure.status)
            } else {
                state.outcome = reason ?? "aborted"
                record(state, status: 0)
            }
        }
    }

    /// A connection the deadline sweep answered before any request began.
    func recordClosedBeforeRequest(_ closure: DeadlineClosure) {
        metrics.recordRequest(route: Router.unmatchedRoute, method: "OTHER", status: closure.status,
                              seconds: configuration.headTimeoutSeconds)
        accessLog?.record(AccessLogEntry(
            time: AccessLog.timestamp(Date()), method: "", route: Router.unmatchedRoute, status: closure.status,
            latencyMs: configuration.headTimeoutSeconds * 1000, map: nil, outcome: closure.code, client: nil, bytesIn: 0))
    }

    /// A message of libmicrohttpd's. One that reports an answer it gave itself ("HTTP
    /// response code is N") becomes an access-log line and a count on the `unmatched`
    /// route; the rest (connection resets and the like) are dropped.
    func libraryMessage(_ message: String) {
        guard let range = message.range(of: "response code is "),
              let status = Int(message[range.upperBound...].prefix(while: \.isNumber)) else { return }
        metrics.recordRequest(route: Router.unmatchedRoute, method: "OTHER", status: status, seconds: 0)
        accessLog?.record(AccessLogEntry(
            time: AccessLog.timestamp(Date()), method: "", route: Router.unmatchedRoute, status: status, latencyMs: 0,
            map: nil, outcome: "refused_by_libmicrohttpd", client: nil, bytesIn: 0))
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
        let h = HealthStatus(status: stopping ? "draining" : "ok", version: version,
                             mapsLoaded: engine.loadedMapCount,
                             uptimeSeconds: (ContinuousClock.now - startedAt).seconds)
        return .json(h, status: stopping ? 503 : 200)
    }

    /// On the connection thread: everything about a localization that needs no pixels
    /// (form, JSON, scope, intrinsics, image header, pixel cap).
    private func prepareLocalization(_ state: RequestState) throws(APIError) -> LocalizationJob {
        let parts: [MultipartFormData.Part]
        do {
            let boundary = if let b = state.boundary { b } else {
                try MultipartFormData.boundary(contentType: state.headers["content-type"] ?? "")
            }
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
        var request: LocalizeRequest
        do {
            request = try Self.requestDecoder.decode(LocalizeRequest.self, from: Data(requestPart.body))
        } catch {
            throw .badRequest("malformed_json", "the request part is not a valid localize request: \(Self.describe(error))")
        }
        var otherMaps: [String] = []
        if request.mapId.isEmpty, let location = request.location {
            // No map named: the georeferenced maps within reach of the reading, nearest first.
            (request.mapId, otherMaps) = try mapsNear(location, state)
        }
        guard !request.mapId.isEmpty, request.mapId.count <= 200 else {
            throw .badRequest("bad_request", "mapId must be 1 to 200 characters")
        }
        state.mapId = request.mapId
        try requireScope(state.grant, request.mapId)
        if let problem = request.intrinsics.problem {
            throw .unprocessable("invalid_intrinsics", "impossible intrinsics: \(problem)")
        }
        try checkImage(imagePart.body, for: request.intrinsics)
        return LocalizationJob(image: imagePart.body, request: request, otherMaps: otherMaps)
    }

    /// An image's header against the intrinsics it comes with, and the pixel cap.
    func checkImage(_ body: [UInt8], for intrinsics: CameraIntrinsics) throws(APIError) {
        guard let header = ImageHeader.parse(body), header.width > 0, header.height > 0 else {
            let what = body.isEmpty ? "the image part is empty"
                : ImageHeader.sniffFormat(body) == nil ? "the image is neither JPEG nor PNG"
                : "the image header is truncated or malformed"
            throw .unprocessable("undecodable_image", what)
        }
        guard header.width == intrinsics.width, header.height == intrinsics.height else {
            throw .unprocessable("image_size_mismatch",
                "the image is \(header.width)x\(header.height) but the intrinsics are for "
                + "\(intrinsics.width)x\(intrinsics.height)")
        }
        let pixels = header.width * header.height
        guard pixels <= configuration.maxImagePixels else {
            throw .unprocessable("image_too_large",
                "the image is \(header.width)x\(header.height) = \(pixels) pixels, more than the limit of "
                + "\(configuration.maxImagePixels)")
        }
        }

    // MARK: Helpers

    /// One decoder for every request (it keeps no per-call state): no decoder is set up on
    /// the connection thread per request.
    private static let requestDecoder = JSONDecoder()

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

    func requireScope(_ grant: TokenGrant?, _ mapId: String) throws(APIError) {
        if let grant, !grant.allows(mapId: mapId) {
            throw .forbidden("the token '\(grant.name)' may not use map '\(mapId.prefix(200))'")
        }
    }

    func engineCall<T>(_ body: () throws(LocalizationEngineError) -> T) throws(APIError) -> T {
        do { return try body() } catch { throw APIError(error) }
    }

    private static func apiError(_ e: MultipartError) -> APIError {
        switch e {
        case .unsupportedMediaType(let m): return APIError(status: 415, code: "unsupported_media_type", message: m)
        case .malformed(let m): return .badRequest("malformed_multipart", m)
        }
    }

    /// A short account of a JSON decoding failure: what and where.
    static func describe(_ error: Error) -> String {
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


