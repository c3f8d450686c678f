import CCurl
import Support

/// One HTTP exchange to make: method, URL, headers and body.
struct HTTPRequest {
    enum Body {
        case none
        case json([UInt8])
        case multipart([MultipartField])
    }

    struct MultipartField {
        var name: String
        var contentType: String
        var filename: String?
        var data: [UInt8]
    }

    var method: String
    var url: String
    var headers: [String]
    var body: Body

    /// Bytes of body content (multipart framing aside).
    var bodySize: Int {
        switch body {
        case .none: return 0
        case .json(let b): return b.count
        case .multipart(let fields): return fields.reduce(0) { $0 + $1.data.count }
        }
    }
}

/// What came back: status and body (headers are not needed by any call yet).
struct HTTPResponse {
    var status: Int
    var body: [UInt8]
}

/// A libcurl easy handle. An easy handle must only be used by one thread at a time; the
/// `CurlTransport` pool guarantees that by handing each handle to exactly one caller
/// between `checkout` and `checkin`, which is why this wrapper may cross threads.
final class CurlEasyHandle: @unchecked Sendable {
    let raw: UnsafeMutableRawPointer

    init?() {
        guard let h = curl_easy_init() else { return nil }
        raw = h
    }

    deinit { curl_easy_cleanup(raw) }
}

/// Accumulates the response body from libcurl's write callback, up to a bound.
private final class BodySink {
    var bytes: [UInt8] = []
    let limit: Int
    init(limit: Int) { self.limit = limit }
}

/// libcurl's write callback: a non-capturing C function; the sink arrives through `userdata`.
private let writeBody: curl_write_callback = { ptr, size, count, userdata in
    let n = size * count
    guard let userdata else { return 0 }
    let sink = Unmanaged<BodySink>.fromOpaque(userdata).takeUnretainedValue()
    if sink.bytes.count + n > sink.limit { return 0 }       // abort: CURLE_WRITE_ERROR
    if n > 0, let ptr {
        ptr.withMemoryRebound(to: UInt8.self, capacity: n) {
            sink.bytes.append(contentsOf: UnsafeBufferPointer(start: $0, count: n))
        }
    }
    return n
}

/// `curl_global_init` once, before the first handle (Swift globals initialise exactly once).
private let curlGlobalInit: CURLcode = curl_global_init(Int(CURL_GLOBAL_DEFAULT))

/// Blocking HTTP over libcurl with a pool of reused easy handles, so sequential calls reuse
/// the kept-alive connection and concurrent calls each get their own handle.
final class CurlTransport: Sendable {
    private let pool = Locked<[CurlEasyHandle]>([])
    private let connectTimeoutMs: Int
    private let requestTimeoutMs: Int
    private let maxResponseBytes: Int
    /// Handles kept for reuse beyond this many are freed.
    private let maxPooled = 32
    /// Bodies of at least this many bytes are sent with `Expect: 100-continue`.
    static let expectContinueThreshold = 1 << 20

    init(connectTimeoutMs: Int, requestTimeoutMs: Int, maxResponseBytes: Int) {
        _ = curlGlobalInit
        self.connectTimeoutMs = connectTimeoutMs
        self.requestTimeoutMs = requestTimeoutMs
        self.maxResponseBytes = maxResponseBytes
    }

    private func checkout() -> CurlEasyHandle? {
        if let h = pool.withLock({ $0.popLast() }) { return h }
        return CurlEasyHandle()
    }

    private func checkin(_ h: CurlEasyHandle) {
        pool.withLock { if $0.count < maxPooled { $0.append(h) } }
    }

    /// Performs the exchange; throws `VPSClientError.transport` when no response arrived.
    func perform(_ request: HTTPRequest) throws(VPSClientError) -> HTTPResponse {
        guard let handle = checkout() else {
            throw .transport(.init(kind: .other, curlCode: -1, message: "curl_easy_init failed"))
        }
        let h = handle.raw
        // Reset options from the previous exchange; the connection cache survives.
        curl_easy_reset(h)
        let sink = BodySink(limit: maxResponseBytes)
        var headerList: UnsafeMutablePointer<curl_slist>?
        var mime: OpaquePointer?
        defer {
            if let headerList { curl_slist_free_all(headerList) }
            if let mime { curl_mime_free(mime) }
        }

        _ = ccurl_setopt_str(h, CURLOPT_URL, request.url)
        _ = ccurl_setopt_long(h, CURLOPT_NOSIGNAL, 1)          // threads: no SIGALRM timeouts
        _ = ccurl_setopt_long(h, CURLOPT_TCP_NODELAY, 1)
        _ = ccurl_setopt_long(h, CURLOPT_CONNECTTIMEOUT_MS, connectTimeoutMs)
        _ = ccurl_setopt_long(h, CURLOPT_TIMEOUT_MS, requestTimeoutMs)
        _ = ccurl_setopt_str(h, CURLOPT_PROTOCOLS_STR, "http,https")
        _ = ccurl_setopt_write_function(h, writeBody)
        let sinkRef = Unmanaged.passRetained(sink)
        defer { sinkRef.release() }
        _ = ccurl_setopt_ptr(h, CURLOPT_WRITEDATA, sinkRef.toOpaque())

        var headers = request.headers
        // Large uploads ask first ("Expect: 100-continue"), so a server that refuses the
        // body from its headers (413, 401) answers before any of it is sent; otherwise
        // the server closing mid-upload can reach us as a reset instead of its answer.
        // Smaller uploads skip that round trip.
        headers.append(request.bodySize >= Self.expectContinueThreshold ? "Expect: 100-continue" : "Expect:")
        // curl sends the body anyway after 1 s without an answer: a busy or starved server
        // would then see the upload it refuses. libmicrohttpd answers every Expect (100 or
        // the refusal), so waiting longer costs nothing.
        _ = ccurl_setopt_long(h, CURLOPT_EXPECT_100_TIMEOUT_MS, min(requestTimeoutMs, 10_000))
        switch request.body {
        case .none:
            if request.method == "GET" {
                _ = ccurl_setopt_long(h, CURLOPT_HTTPGET, 1)
            } else {
                _ = ccurl_setopt_str(h, CURLOPT_CUSTOMREQUEST, request.method)
            }
        case .json(let bytes):
            headers.append("Content-Type: application/json")
            _ = ccurl_setopt_off(h, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(bytes.count))
            // COPYPOSTFIELDS copies, so the Swift array need not outlive the call.
            bytes.withUnsafeBytes { _ = ccurl_setopt_ptr(h, CURLOPT_COPYPOSTFIELDS, $0.baseAddress) }
            if request.method != "POST" { _ = ccurl_setopt_str(h, CURLOPT_CUSTOMREQUEST, request.method) }
        case .multipart(let fields):
            mime = curl_mime_init(h)
            for f in fields {
                guard let part = curl_mime_addpart(mime) else { continue }
                _ = curl_mime_name(part, f.name)
                _ = curl_mime_type(part, f.contentType)
                if let fn = f.filename { _ = curl_mime_filename(part, fn) }
                f.data.withUnsafeBytes {
                    // curl_mime_data copies the bytes.
                    _ = curl_mime_data(part, $0.baseAddress?.assumingMemoryBound(to: CChar.self), $0.count)
                }
            }
            _ = ccurl_setopt_ptr(h, CURLOPT_MIMEPOST, UnsafeRawPointer(mime))
        }
        for line in headers { headerList = curl_slist_append(headerList, line) }
        _ = ccurl_setopt_ptr(h, CURLOPT_HTTPHEADER, headerList)

        let code = curl_easy_perform(h)
        guard code == CURLE_OK else {
            // A handle that failed mid-transfer is still reusable; its broken connection is dropped.
            checkin(handle)
            throw .transport(Self.failure(code, url: request.url))
        }
        var status = 0
        _ = ccurl_getinfo_long(h, CURLINFO_RESPONSE_CODE, &status)
        checkin(handle)
        return HTTPResponse(status: status, body: sink.bytes)
    }

    private static func failure(_ code: CURLcode, url: String) -> VPSClientError.TransportFailure {
        let message = curl_easy_strerror(code).map { String(cString: $0) } ?? "curl error"
        let kind: VPSClientError.TransportFailure.Kind
        switch code {
        case CURLE_COULDNT_CONNECT: kind = .connectionRefused
        case CURLE_OPERATION_TIMEDOUT: kind = .timedOut
        case CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY: kind = .hostNotFound
        case CURLE_GOT_NOTHING, CURLE_SEND_ERROR, CURLE_RECV_ERROR, CURLE_PARTIAL_FILE: kind = .connectionLost
        default: kind = .other
        }
        return .init(kind: kind, curlCode: Int(code.rawValue), message: "\(message) (\(url))")
    }
}
