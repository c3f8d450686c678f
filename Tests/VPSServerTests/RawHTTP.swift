import Foundation
import TestSupport

/// A bare TCP client for sending exactly the bytes a test wants (broken framing, lying
/// Content-Length, stalls) and reading back the raw response.
final class RawConnection {
    let fd: Int32

    /// Connects to 127.0.0.1:`port`; with `from`, the client socket is first bound to that
    /// loopback address (e.g. 127.0.0.2), so the server sees another client address.
    /// A throw after `fd` is set still runs `deinit`, which closes it: closing it here too
    /// closed whatever descriptor had reused the number meanwhile (once, another test
    /// server's libmicrohttpd event fd, which aborted the test process).
    init(port: UInt16, from source: String? = nil) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw RawError("socket failed") }
        if let source {
            var local = sockaddr_in()
            local.sin_family = sa_family_t(AF_INET)
            local.sin_addr.s_addr = inet_addr(source)
            let bound = withUnsafePointer(to: &local) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard bound == 0 else { throw RawError("bind to \(source) failed: errno \(errno)") }
        }
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = port.bigEndian
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        let rc = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard rc == 0 else { throw RawError("connect failed: errno \(errno)") }
    }

    deinit { close(fd) }

    /// The errno of the last failed `send`: EPIPE or ECONNRESET when the peer closed,
    /// EAGAIN when the send timeout (`setSendTimeout`) passed with the peer not reading.
    private(set) var lastSendError: Int32 = 0

    /// Sends all bytes; false if the peer closed the connection meanwhile (or the send
    /// timeout passed), with the reason in `lastSendError`.
    @discardableResult
    func send(_ bytes: [UInt8]) -> Bool {
        var off = 0
        while off < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress! + off, $0.count - off, Int32(MSG_NOSIGNAL)) }
            if n < 0, errno == EINTR { continue }
            if n <= 0 { lastSendError = errno; return false }
            off += n
        }
        return true
    }

    /// Makes a `send` that cannot progress for `seconds` fail with EAGAIN instead of
    /// blocking forever (a peer that stops reading without closing).
    func setSendTimeout(seconds: Int) {
        var tv = timeval(tv_sec: seconds, tv_usec: 0)
        _ = setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
    }

    @discardableResult
    func send(_ text: String) -> Bool { send(Array(text.utf8)) }

    /// Reads until the peer closes, a complete response (by Content-Length) has arrived, or
    /// `timeout` passes. Returns the bytes read and whether the peer closed.
    func readResponse(timeout: Double) -> (text: String, closed: Bool) {
        var data: [UInt8] = []
        let deadline = Date().addingTimeInterval(timeout)
        var buf = [UInt8](repeating: 0, count: 65536)
        while Date() < deadline {
            if let r = RawResponse(data), data.count >= r.headerLength + r.contentLength {
                return (String(decoding: data, as: UTF8.self), false)
            }
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ms = Int32(max(1, deadline.timeIntervalSinceNow * 1000))
            guard poll(&p, 1, ms) > 0 else { continue }
            let n = buf.withUnsafeMutableBytes { recv(fd, $0.baseAddress!, $0.count, 0) }
            if n <= 0 { return (String(decoding: data, as: UTF8.self), true) }
            data += buf[0..<n]
        }
        return (String(decoding: data, as: UTF8.self), false)
    }
}

/// The status, headers and body of a raw HTTP/1.1 response.
struct RawResponse {
    var status: Int
    var headers: [String: String]
    var body: String
    var headerLength: Int
    var contentLength: Int

    init?(_ bytes: [UInt8]) {
        let text = String(decoding: bytes, as: UTF8.self)
        guard let end = text.range(of: "\r\n\r\n") else { return nil }
        let head = text[..<end.lowerBound].split(separator: "\r\n").map(String.init)
        guard let first = head.first, first.hasPrefix("HTTP/1."), first.count >= 12,
              let s = Int(first.dropFirst(9).prefix(3)) else { return nil }
        status = s
        var h: [String: String] = [:]
        for line in head.dropFirst() {
            if let c = line.firstIndex(of: ":") {
                h[line[..<c].lowercased()] = line[line.index(after: c)...].trimmingCharacters(in: .whitespaces)
            }
        }
        headers = h
        headerLength = text.utf8.distance(from: text.utf8.startIndex, to: end.upperBound)
        contentLength = Int(h["content-length"] ?? "0") ?? 0
        body = String(text[end.upperBound...])
    }

    init?(_ text: String) { self.init(Array(text.utf8)) }
}

/// The largest size the kernel autotunes a TCP socket's buffer to: the third field of
/// `/proc/sys/net/ipv4/tcp_rmem` (receive) or `tcp_wmem` (send). Nil when unreadable.
func tcpBufferMaximum(_ name: String) -> Int? {
    guard let text = try? String(contentsOfFile: "/proc/sys/net/ipv4/\(name)", encoding: .utf8) else { return nil }
    let fields = text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" })
    return fields.count == 3 ? Int(fields[2]) : nil
}

struct RawError: Error, CustomStringConvertible {
    let description: String
    init(_ d: String) { description = d }
}

/// Sends one raw request on a fresh connection (from loopback address `from` when given)
/// and parses the answer.
func rawExchange(port: UInt16, _ request: [UInt8], from source: String? = nil, timeout: Double = 10) throws -> RawResponse {
    let c = try RawConnection(port: port, from: source)
    c.send(request)
    let (text, _) = c.readResponse(timeout: timeout)
    guard let r = RawResponse(text) else { throw RawError("no HTTP response; got \(text.prefix(200).debugDescription)") }
    return r
}

func rawExchange(port: UInt16, _ request: String, from source: String? = nil, timeout: Double = 10) throws -> RawResponse {
    try rawExchange(port: port, Array(request.utf8), from: source, timeout: timeout)
}

/// A multipart/form-data body from (name, content type, bytes) parts.
func multipartBody(boundary: String, _ parts: [(name: String, type: String?, data: [UInt8])]) -> [UInt8] {
    var out: [UInt8] = []
    for p in parts {
        out += Array("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(p.name)\"\r\n".utf8)
        if let t = p.type { out += Array("Content-Type: \(t)\r\n".utf8) }
        out += Array("\r\n".utf8) + p.data + Array("\r\n".utf8)
    }
    out += Array("--\(boundary)--\r\n".utf8)
    return out
}

/// A POST /v1/localize with the given body, headers and token.
func localizePost(token: String?, contentType: String?, body: [UInt8], contentLength: Int? = nil) -> [UInt8] {
    var head = "POST /v1/localize HTTP/1.1\r\nHost: test\r\n"
    if let token { head += "Authorization: Bearer \(token)\r\n" }
    if let contentType { head += "Content-Type: \(contentType)\r\n" }
    head += "Content-Length: \(contentLength ?? body.count)\r\nConnection: close\r\n\r\n"
    return Array(head.utf8) + body
}

/// `rawExchange` started at once on a thread of its own (`ThreadTask`).
///
/// Such a request is held: its answer comes only once the test lets it (opens a gate,
/// stops the server), and the test gets there through `await`s that a loaded run (ASan,
/// every suite at once on 2 cores) can starve for minutes. So the client waits 600 s by
/// default; the timeout only guards against a hang, it measures nothing. (At 60 s, the
/// running request of `aQueuedLocalizationIsAnswered503AtItsDeadlineWithoutStarting` gave
/// up before its test opened the gate, in 2 ASan runs of 2.)
func rawExchangeStarted(port: UInt16, _ request: [UInt8], timeout: Double = 600) -> ThreadTask<Result<RawResponse, any Error>> {
    ThreadTask { Result { try rawExchange(port: port, request, timeout: timeout) } }
}
