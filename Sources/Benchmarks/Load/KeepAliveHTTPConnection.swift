import Foundation

/// One kept-alive HTTP/1.1 connection over a blocking socket that sends request bytes
/// prepared in advance and reads back one answer per request: the load generator's
/// transport. It costs the client a `send` and a few `recv` calls per request, so a
/// benchmark on the same machine as the server takes almost no CPU from it (libcurl's
/// multipart assembly, response decoding and the hops through Dispatch cost far more).
///
/// Handles exactly what the service sends: a status line, headers, a `Content-Length`
/// body, and `Connection: close`. Anything else is a `KeepAliveHTTPConnection.Failure`.
final class KeepAliveHTTPConnection {
    struct Failure: Error, CustomStringConvertible {
        var description: String
        /// The peer closed or reset the connection before any byte of the answer: on a
        /// kept-alive connection, the server's idle close racing the request.
        var beforeAnswer = false
    }

    /// One answer: status, body, and whether the server closes the connection after it.
    struct Answer {
        var status: Int
        var body: ArraySlice<UInt8>
        var closes: Bool
    }

    private let host: String
    private let port: UInt16
    private let timeoutSeconds: Int
    private var fd: Int32 = -1
    /// Received bytes (the first `filled` of `storage`); reused across answers, so reading
    /// allocates nothing once grown.
    private var storage: [UInt8] = []
    private var filled = 0
    private let readChunk = 64 << 10

    /// Connects at once. `timeoutSeconds` bounds every send and receive, so a stalled
    /// server fails the request instead of hanging the benchmark.
    init(host: String, port: UInt16, timeoutSeconds: Int) throws(Failure) {
        self.host = host; self.port = port; self.timeoutSeconds = timeoutSeconds
        try connect()
    }

    deinit { if fd >= 0 { close(fd) } }

    /// `http://host:port` (IPv6 hosts in brackets) split into host and port.
    static func hostAndPort(of baseURL: String) throws(Failure) -> (host: String, port: UInt16) {
        guard baseURL.hasPrefix("http://") else { throw Failure(description: "only http:// URLs, got '\(baseURL)'") }
        var rest = Substring(baseURL.dropFirst("http://".count))
        if let slash = rest.firstIndex(of: "/") { rest = rest[..<slash] }
        let host: Substring, portText: Substring?
        if rest.hasPrefix("["), let close = rest.firstIndex(of: "]") {
            host = rest[rest.index(after: rest.startIndex)..<close]
            let after = rest[rest.index(after: close)...]
            portText = after.hasPrefix(":") ? after.dropFirst() : nil
        } else if let colon = rest.lastIndex(of: ":") {
            host = rest[..<colon]; portText = rest[rest.index(after: colon)...]
        } else {
            host = rest; portText = nil
        }
        guard let port = UInt16(portText ?? "80"), !host.isEmpty else {
            throw Failure(description: "cannot read host and port from '\(baseURL)'")
        }
        return (String(host), port)
    }

    private func connect() throws(Failure) {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_NUMERICSERV
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(port), &hints, &list) == 0, let first = list else {
            throw Failure(description: "cannot resolve \(host)")
        }
        defer { freeaddrinfo(list) }
        let s = socket(first.pointee.ai_family, Int32(SOCK_STREAM.rawValue), 0)
        guard s >= 0 else { throw Failure(description: "socket: errno \(errno)") }
        var one: Int32 = 1
        _ = setsockopt(s, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        var tv = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
        _ = setsockopt(s, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        _ = setsockopt(s, SOL_SOCKET, SO_SNDTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        guard Glibc.connect(s, first.pointee.ai_addr, first.pointee.ai_addrlen) == 0 else {
            let e = errno
            close(s)
            throw Failure(description: "connect to \(host):\(port): errno \(e)")
        }
        fd = s
    }

    /// Sends `request` (a whole HTTP/1.1 request) and reads its answer. After a failure or
    /// an answer that closes the connection, the next call connects again.
    ///
    /// A connection the server closed while it was idle (its idle timeout) fails the next
    /// request before any answer byte; as HTTP clients do (RFC 9112 §9.3.1), such a request
    /// is sent once more on a new connection. The service's requests only read. A
    /// connection opened by this call is not retried: its failure is the server's answer.
    func exchange(_ request: [UInt8]) throws(Failure) -> Answer {
        let openedBefore = fd >= 0
        do {
            return try exchangeOnce(request)
        } catch where error.beforeAnswer && openedBefore {
            return try exchangeOnce(request)
        }
    }

    private func exchangeOnce(_ request: [UInt8]) throws(Failure) -> Answer {
        if fd < 0 { try connect() }
        do {
            try send(request)
            let answer = try receiveAnswer()
            if answer.closes { drop() }
            return answer
        } catch {
            drop()
            throw error
        }
    }

    private func drop() {
        if fd >= 0 { close(fd) }
        fd = -1
    }

    private func send(_ bytes: [UInt8]) throws(Failure) {
        var sent = 0
        while sent < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress! + sent, $0.count - sent, Int32(MSG_NOSIGNAL)) }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else {
                let e = errno
                throw Failure(description: "send: errno \(e)", beforeAnswer: e == EPIPE || e == ECONNRESET)
            }
            sent += n
        }
    }

    /// Reads until `count` bytes are buffered; false when the peer closed first.
    private func fill(to count: Int) throws(Failure) -> Bool {
        while filled < count {
            if storage.count < filled + readChunk { storage.append(contentsOf: repeatElement(0, count: max(readChunk, storage.count))) }
            let at = filled
            let n = storage.withUnsafeMutableBytes { recv(fd, $0.baseAddress! + at, $0.count - at, 0) }
            if n < 0, errno == EINTR { continue }
            if n < 0 {
                let e = errno
                throw Failure(description: e == EAGAIN ? "no answer within \(timeoutSeconds) s" : "recv: errno \(e)",
                              beforeAnswer: e == ECONNRESET && filled == 0)
            }
            if n == 0 { return false }
            filled += n
        }
        return true
    }

    private func receiveAnswer() throws(Failure) -> Answer {
        filled = 0
        // The head: up to the blank line.
        var headEnd: Int?
        while headEnd == nil {
            let searchedUpTo = max(0, filled - 3)
            guard try fill(to: filled + 1) else {
                throw Failure(description: "connection closed before an answer", beforeAnswer: filled == 0)
            }
            headEnd = Self.find([13, 10, 13, 10], in: storage[..<filled], from: searchedUpTo)
            if headEnd == nil, filled > 64 << 10 { throw Failure(description: "answer head over 64 KB") }
        }
        let head = String(decoding: storage[..<headEnd!], as: UTF8.self)
        let lines = head.split(separator: "\r\n", omittingEmptySubsequences: false)
        let statusWords = lines[0].split(separator: " ", maxSplits: 2)
        guard statusWords.count >= 2, statusWords[0].hasPrefix("HTTP/1."), let status = Int(statusWords[1]) else {
            throw Failure(description: "not an HTTP/1.x status line: \(lines[0].prefix(80))")
        }
        var length: Int?, closes = statusWords[0] == "HTTP/1.0"
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = line[..<colon].lowercased()
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            if name == "content-length" { length = Int(value) }
            if name == "connection" { closes = value.lowercased() == "close" }
        }
        guard let length, length >= 0 else { throw Failure(description: "answer without Content-Length") }
        let bodyStart = headEnd! + 4
        guard try fill(to: bodyStart + length) else { throw Failure(description: "connection closed mid-answer") }
        return Answer(status: status, body: storage[bodyStart..<(bodyStart + length)], closes: closes)
    }

    /// Index of the first `needle` in `haystack` at or after `from`.
    static func find(_ needle: [UInt8], in haystack: ArraySlice<UInt8>, from: Int) -> Int? {
        var i = max(from, haystack.startIndex)
        while i + needle.count <= haystack.endIndex {
            if haystack[i] == needle[0], haystack[i..<(i + needle.count)].elementsEqual(needle) { return i }
            i += 1
        }
        return nil
    }
}
