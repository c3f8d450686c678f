import Dispatch
import Foundation
import VPSModel
import Support

/// A client of the arcloud VPS HTTP service (`arcloud serve`), over libcurl.
///
/// ```swift
/// let client = try VPSClient(baseURL: "http://127.0.0.1:8080", token: "arc_...")
/// let answer = try await client.localize(image: jpegBytes, request: LocalizeRequest(
///     mapId: "gallery", intrinsics: camera))
/// if answer.status == .localized { print(answer.pose!) }
/// ```
///
/// Calls are safe from any number of tasks at once: each exchange borrows an easy handle
/// from a small pool (so sequential calls reuse the kept-alive connection). The blocking
/// transfer runs on a Dispatch queue, never on the Swift concurrency pool.
///
/// Failures throw `VPSClientError`: `.transport` when no HTTP answer arrived (retry may
/// help), `.http(status:code:message:)` with the server's JSON error otherwise.
public final class VPSClient: Sendable {
    /// Timeouts and limits of a client.
    public struct Options: Sendable {
        /// Time allowed to establish the TCP connection.
        public var connectTimeout: Duration
        /// Time allowed for a whole exchange, upload and answer included.
        public var requestTimeout: Duration
        /// Larger response bodies are refused (transport failure), protecting the caller.
        public var maxResponseBytes: Int

        public init(connectTimeout: Duration = .seconds(3), requestTimeout: Duration = .seconds(30),
                    maxResponseBytes: Int = 32 << 20) {
            self.connectTimeout = connectTimeout; self.requestTimeout = requestTimeout
            self.maxResponseBytes = maxResponseBytes
        }
    }

    /// The service root, e.g. `http://127.0.0.1:8080` (no trailing slash).
    public let baseURL: String
    private let token: String?
    private let transport: CurlTransport
    private static let queue = DispatchQueue(label: "arcloud.vpsclient", attributes: .concurrent)

    /// - Parameters:
    ///   - baseURL: `http://host:port` of the service; a trailing `/` is ignored.
    ///   - token: the bearer token (`arc_...`); nil sends no `Authorization` header.
    /// - Throws: `VPSClientError.invalidRequest` when the URL is not http(s).
    public init(baseURL: String, token: String?, options: Options = Options()) throws(VPSClientError) {
        var base = baseURL
        while base.hasSuffix("/") { base.removeLast() }
        guard base.hasPrefix("http://") || base.hasPrefix("https://"), base.count > 8 else {
            throw .invalidRequest("base URL must start with http:// or https://, got '\(baseURL)'")
        }
        if let token, token.contains(where: { $0 == "\r" || $0 == "\n" }) {
            throw .invalidRequest("token contains a line break")
        }
        self.baseURL = base
        self.token = token
        transport = CurlTransport(connectTimeoutMs: Self.milliseconds(options.connectTimeout),
                                  requestTimeoutMs: Self.milliseconds(options.requestTimeout),
                                  maxResponseBytes: options.maxResponseBytes)
    }

    private static func milliseconds(_ d: Duration) -> Int { max(1, Int(d.wholeMilliseconds)) }

    // MARK: API

    /// `POST /v1/localize`: localizes one encoded JPEG or PNG image against a map.
    /// A frame that does not match still returns normally, with `status == .notLocalized`.
    public func localize(image: [UInt8], request: LocalizeRequest) async throws(VPSClientError) -> LocalizeResponse {
        let json: [UInt8]
        do { json = Array(try JSONEncoder().encode(request)) } catch {
            throw .invalidRequest("cannot encode the request: \(error)")
        }
        let format = ImageHeader.sniffFormat(image)
        let fields = [
            HTTPRequest.MultipartField(name: "request", contentType: "application/json", filename: nil, data: json),
            HTTPRequest.MultipartField(name: "image", contentType: format?.mimeType ?? "application/octet-stream",
                                       filename: "frame." + (format?.rawValue ?? "bin"), data: image),
        ]
        return try await call("POST", "/v1/localize", body: .multipart(fields))
    }

    /// `POST /v1/localize` with the image as `Data`.
    public func localize(image: Data, request: LocalizeRequest) async throws(VPSClientError) -> LocalizeResponse {
        try await localize(image: [UInt8](image), request: request)
    }

    /// `GET /v1/maps`: the maps this token may use.
    public func maps() async throws(VPSClientError) -> [MapSummary] {
        let list: MapList = try await call("GET", "/v1/maps", body: .none)
        return list.maps
    }

    /// `GET /v1/maps/{id}/scene`: AR objects, sections and navigation graph of a map.
    public func scene(mapId: String) async throws(VPSClientError) -> SceneContent {
        try await call("GET", "/v1/maps/\(Self.pathSegment(mapId))/scene", body: .none)
    }

    /// `GET /healthz`. While the server drains for shutdown this throws `.http(503, ...)`.
    public func health() async throws(VPSClientError) -> HealthStatus {
        try await call("GET", "/healthz", body: .none)
    }

    /// `GET /metrics`: the Prometheus text exposition, unparsed.
    public func metricsText() async throws(VPSClientError) -> String {
        let r = try await exchange(HTTPRequest(method: "GET", url: baseURL + "/metrics", headers: [], body: .none))
        guard (200..<300).contains(r.status) else { throw Self.httpError(r) }
        return String(decoding: r.body, as: UTF8.self)
    }

    // MARK: Plumbing

    private func call<T: Decodable>(_ method: String, _ path: String,
                                    body: HTTPRequest.Body) async throws(VPSClientError) -> T {
        var headers: [String] = ["Accept: application/json"]
        if let token { headers.append("Authorization: Bearer \(token)") }
        let r = try await exchange(HTTPRequest(method: method, url: baseURL + path, headers: headers, body: body))
        guard (200..<300).contains(r.status) else { throw Self.httpError(r) }
        do {
            return try JSONDecoder().decode(T.self, from: Data(r.body))
        } catch {
            throw .invalidResponse(status: r.status, message: "cannot decode \(T.self): \(error)")
        }
    }

    private func exchange(_ request: HTTPRequest) async throws(VPSClientError) -> HTTPResponse {
        let transport = self.transport
        let result: Result<HTTPResponse, VPSClientError> = await withCheckedContinuation { cont in
            Self.queue.async {
                do throws(VPSClientError) {
                    cont.resume(returning: .success(try transport.perform(request)))
                } catch {
                    cont.resume(returning: .failure(error))
                }
            }
        }
        return try result.get()
    }

    private static func httpError(_ r: HTTPResponse) -> VPSClientError {
        if let e = try? JSONDecoder().decode(APIErrorBody.self, from: Data(r.body)) {
            return .http(status: r.status, code: e.error.code, message: e.error.message)
        }
        let text = String(decoding: r.body.prefix(200), as: UTF8.self)
        return .http(status: r.status, code: "http_\(r.status)", message: text.isEmpty ? "no error body" : text)
    }

    /// Percent-encodes a map id for use as one path segment.
    private static func pathSegment(_ s: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return s.addingPercentEncoding(withAllowedCharacters: allowed) ?? s
    }
}
