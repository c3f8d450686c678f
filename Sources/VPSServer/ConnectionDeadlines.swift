import Foundation
import Support

/// One open connection as the deadline sweep sees it. Its fields change only under
/// `ConnectionDeadlines`' lock.
final class ConnectionRecord: @unchecked Sendable {
    enum Phase {
        /// Waiting for a whole request head since the connection opened or its last answer went out.
        case awaitingHead(since: ContinuousClock.Instant)
        /// Head in, body arriving: `bytes` so far since `since`.
        case receivingBody(since: ContinuousClock.Instant, bytes: Int)
        /// The request is in; the server sets the pace (localizing, sending).
        case answering
    }

    let fd: Int32
    fileprivate var phase: Phase = .awaitingHead(since: .now)
    fileprivate var requestsSeen = 0
    fileprivate var closedBy: DeadlineClosure?

    init(fd: Int32) { self.fd = fd }
}

/// Why the sweep closed a connection, and the status it answered with (0: closed silently).
struct DeadlineClosure: Sendable {
    var status: Int
    var code: String
    var message: String
}

/// Deadlines libmicrohttpd 0.9 does not have. Its connection timeout restarts on every byte,
/// so a client dripping one byte a second would hold its connection (and, with enough of
/// them, the connection limit) forever. Here the whole request head has a deadline counted
/// from the connection's start (or its previous answer), and a body must keep an average
/// rate from the end of the head: trickling extends neither.
///
/// Connections are registered through `MHD_OPTION_NOTIFY_CONNECTION`; `sweep` runs on the
/// server's watchdog thread and ends an offending connection with `shutdown(2)` on its
/// socket, which the connection's own thread then sees as the end of the stream. The sweep
/// holds the lock while it does so and the close notification removes the record under the
/// same lock before libmicrohttpd closes the descriptor, so a reused descriptor number is
/// never hit.
final class ConnectionDeadlines: Sendable {
    let headTimeout: Duration
    let minBodyBytesPerSecond: Int
    /// The body rate is judged only after this long, so a slow start is not punished.
    let bodyGrace: Duration
    private let records = Locked<[ObjectIdentifier: ConnectionRecord]>([:])

    init(headTimeout: Duration, minBodyBytesPerSecond: Int, bodyGrace: Duration = .seconds(2)) {
        self.headTimeout = headTimeout
        self.minBodyBytesPerSecond = minBodyBytesPerSecond
        self.bodyGrace = bodyGrace
    }

    func opened(_ r: ConnectionRecord) {
        records.withLock { $0[ObjectIdentifier(r)] = r }
    }

    func closed(_ r: ConnectionRecord) {
        _ = records.withLock { $0.removeValue(forKey: ObjectIdentifier(r)) }
    }

    /// The head of a request is in; `expectsBody` when it declares a body.
    func headReceived(_ r: ConnectionRecord, expectsBody: Bool) {
        records.withLock { _ in
            r.requestsSeen += 1
            r.phase = expectsBody ? .receivingBody(since: .now, bytes: 0) : .answering
        }
    }

    func bodyReceived(_ r: ConnectionRecord, bytes: Int) {
        records.withLock { _ in
            if case .receivingBody(let since, let n) = r.phase { r.phase = .receivingBody(since: since, bytes: n + bytes) }
        }
    }

    /// The whole request is in (the server answers at its own pace from here).
    func requestReceived(_ r: ConnectionRecord) {
        records.withLock { _ in r.phase = .answering }
    }

    /// The request ended (answer sent, or the connection failed): the next head's deadline starts.
    func requestEnded(_ r: ConnectionRecord) {
        records.withLock { _ in r.phase = .awaitingHead(since: .now) }
    }

    /// How the sweep ended this connection's request, if it did.
    func closure(of r: ConnectionRecord) -> DeadlineClosure? {
        records.withLock { _ in r.closedBy }
    }

    /// Ends every connection past a deadline at `now`. `unlogged` is called, before the
    /// answer goes out, for connections that had not sent any request (nothing else will
    /// log them; a request that had begun is logged when libmicrohttpd completes it).
    func sweep(now: ContinuousClock.Instant, unlogged: (DeadlineClosure) -> Void) {
        records.withLock { all in
            for r in all.values where r.closedBy == nil {
                let closure: DeadlineClosure
                switch r.phase {
                case .awaitingHead(let since) where now - since > headTimeout:
                    if r.requestsSeen == 0 {
                        closure = DeadlineClosure(status: 408, code: "head_timeout",
                            message: "the request head did not arrive within \(headTimeout.seconds) s")
                        unlogged(closure)
                    } else {
                        // An idle kept-alive connection: closing it silently is what HTTP
                        // allows; an unsolicited 408 could be read as the answer to a
                        // request the client is sending at this very moment.
                        closure = DeadlineClosure(status: 0, code: "keepalive_idle", message: "")
                    }
                case .receivingBody(let since, let bytes) where now - since > bodyGrace:
                    let needed = Double(minBodyBytesPerSecond) * (now - since).seconds
                    guard Double(bytes) < needed else { continue }
                    closure = DeadlineClosure(status: 408, code: "body_too_slow",
                        message: "the body arrived at less than \(minBodyBytesPerSecond) bytes/s "
                                 + "(\(bytes) bytes in \(String(format: "%.1f", (now - since).seconds)) s)")
                default:
                    continue
                }
                r.closedBy = closure
                if closure.status != 0 { Self.sendClosingAnswer(closure, on: r.fd) }
                shutdown(r.fd, Int32(SHUT_RDWR))
            }
        }
    }

    /// Best effort, never blocking: the connection's thread is not writing (it waits for
    /// the head or the body), so these bytes cannot interleave with a response of its own.
    private static func sendClosingAnswer(_ c: DeadlineClosure, on fd: Int32) {
        let r = APIError(status: c.status, code: c.code, message: c.message).response
        var head = "HTTP/1.1 \(c.status) Request Timeout\r\n"
        for (name, value) in r.headers { head += "\(name): \(value)\r\n" }
        head += "Content-Length: \(r.body.count)\r\nConnection: close\r\n\r\n"
        let bytes = Array(head.utf8) + r.body
        _ = bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
    }
}
