import CMicroHTTPD
import Foundation
import Support
import Synchronization

/// The VPS HTTP service on libmicrohttpd: `POST /v1/localize`, `GET /v1/maps`,
/// `GET /v1/maps/{id}/scene`, `GET /healthz`, `GET /metrics`.
///
/// ```swift
/// let server = VPSServer(engine: engine, tokens: tokenStore, configuration: .init(port: 0))
/// try server.start()
/// print(server.baseURL)            // http://127.0.0.1:41234
/// ...
/// server.stop()                    // refuse new work, let in-flight requests finish
/// ```
///
/// Each connection has a thread of its own (libmicrohttpd's thread-per-connection mode), so
/// a health check, a metrics scrape or a map listing never waits behind a localization on
/// another connection. Localizations run at most one per core (`WorkerPool`): on the
/// connection's own thread while a core is free, which costs no hand-off; beyond that
/// queued for worker threads, within a bounded queue (full: 503 `overloaded`) and the time
/// budget (503 `time_budget_exceeded`). Per-address connection caps keep the thread count
/// bounded. A watchdog thread enforces what libmicrohttpd does not: the request-head
/// deadline and the minimum body rate. Input can never crash the server: every malformed
/// request becomes a JSON error with its status.
public final class VPSServer: Sendable {
    private let handler: RequestHandler
    private let daemon = Locked<OpaquePointer?>(nil)
    private let boundPort = Atomic<UInt16>(0)
    private let watchdog = Locked<Watchdog?>(nil)

    /// - Parameters:
    ///   - engine: answers maps, scenes and localizations.
    ///   - tokens: verifies bearer tokens (usually a `TokenStore`).
    ///   - accessLog: where one JSON line per request goes; nil for none.
    ///   - version: reported by `/healthz`.
    public init(engine: any LocalizationEngine, tokens: any BearerTokenVerifier,
                configuration: VPSServerConfiguration = VPSServerConfiguration(),
                accessLog: AccessLog? = nil, version: String = "dev") {
        handler = RequestHandler(engine: engine, tokens: tokens, configuration: configuration,
                                 accessLog: accessLog, version: version)
    }

    /// The configuration the server was made with.
    public var configuration: VPSServerConfiguration { handler.configuration }

    /// The port listened on (the real one when configured with 0); 0 before `start()`.
    public var port: UInt16 { boundPort.load(ordering: .acquiring) }

    /// `http://host:port`, bracketing IPv6 literals.
    public var baseURL: String {
        let h = configuration.host == "localhost" ? "127.0.0.1" : configuration.host
        return "http://\(h.contains(":") ? "[\(h)]" : h):\(port)"
    }

    /// Requests begun and not yet completed.
    public var requestsInFlight: Int { handler.inFlight.load(ordering: .relaxed) }

    /// Binds and starts serving. Throws `VPSServerError` when the address is invalid or
    /// cannot be bound, or the server already runs.
    public func start() throws(VPSServerError) {
        let c = configuration
        guard c.localizationWorkers >= 1, c.localizationQueue >= 0, c.localizationBudgetSeconds > 0,
              c.maxImagePixels >= 1, c.maxConnections >= 1, c.maxConnectionsPerClient >= 0,
              c.connectionTimeoutSeconds >= 1, c.headTimeoutSeconds > 0, c.minBodyBytesPerSecond >= 0,
              c.maxBodyBytes >= 1 else {
            throw .invalidConfiguration("workers, budget, pixel cap, connection limits, timeouts and the body limit must be positive")
        }
        let address = try SocketAddress(host: c.host, port: c.port)
        try daemon.withLock { (d: inout OpaquePointer?) throws(VPSServerError) in
            guard d == nil else { throw .alreadyRunning }
            handler.draining.store(false, ordering: .relaxed)       // a restart after stop() serves again
            handler.abandoning.store(false, ordering: .relaxed)
            // A thread per connection: a localization runs on (or waits on) its connection's
            // thread and holds back no other connection. poll(), not epoll, for the listening
            // thread: in libmicrohttpd 0.9.75, MHD_quiesce_daemon (the drain) races an epoll
            // thread that removes the listen socket from its epoll set itself, and the loser's
            // epoll_ctl failure is an MHD_PANIC that aborts the process. With poll() the
            // quiesce is signalled through the inter-thread channel (MHD_USE_ITC) instead.
            var flags = MHD_USE_INTERNAL_POLLING_THREAD.rawValue | MHD_USE_THREAD_PER_CONNECTION.rawValue
                | MHD_USE_POLL.rawValue | MHD_USE_ITC.rawValue | MHD_USE_ERROR_LOG.rawValue
            if address.isIPv6 { flags |= MHD_USE_IPv6.rawValue }
            let cls = Unmanaged.passRetained(handler).toOpaque()
            let started = address.withSockaddr { sa in
                cmhd_start_daemon(flags, c.port, sa, accessHandlerCallback, cls,
                                  requestCompletedCallback, cls, 1, UInt32(c.maxConnections),
                                  UInt32(c.connectionTimeoutSeconds), 0, UInt32(c.maxConnectionsPerClient),
                                  connectionNotifyCallback, cls, libraryLogCallback, cls)
            }
            guard let started else {
                Unmanaged<RequestHandler>.fromOpaque(cls).release()
                throw .bindFailed("cannot listen on \(c.host):\(c.port) (address in use or not available)")
            }
            d = started
            boundPort.store(cmhd_bound_port(started), ordering: .releasing)
            let handler = self.handler
            watchdog.withLock { $0 = Watchdog(every: .milliseconds(50)) { now in
                handler.connections.sweep(now: now) { handler.recordClosedBeforeRequest($0) }
            } }
        }
    }

    /// Graceful stop (the drain): stops accepting connections (connections already waiting
    /// in the listen queue are still taken in), answers every request already received —
    /// also those arriving on open connections meanwhile, each then closing its connection
    /// — and waits up to `gracePeriod` (default from the configuration) for them. What is
    /// still unanswered then is answered 503 `drain_timeout` (a running localization at its
    /// next stage), and everything closes. Work an engine does not interrupt (a map's first
    /// load) delays the return until it ends. Safe to call more than once.
    public func stop(gracePeriod: Duration? = nil) {
        guard let d = daemon.withLock({ (d: inout OpaquePointer?) -> OpaquePointer? in
            let current = d
            d = nil
            return current
        }) else { return }
        handler.draining.store(true, ordering: .relaxed)
        let listenSocket = MHD_quiesce_daemon(d)
        if listenSocket >= 0 {
            adoptPendingConnections(listenSocket, into: d)
            // Refuse new connections now; the descriptor itself is closed only after
            // MHD_stop_daemon, as libmicrohttpd asks.
            shutdown(listenSocket, Int32(SHUT_RDWR))
        }
        let grace = gracePeriod ?? .milliseconds(Int(configuration.shutdownGracePeriodSeconds * 1000))
        let deadline = ContinuousClock.now + grace
        while handler.inFlight.load(ordering: .relaxed) > 0, ContinuousClock.now < deadline {
            usleep(2_000)
        }
        // Localizations still running stop at their next stage, queued ones at once; their
        // connections answer 503 drain_timeout. Give them a moment to send it.
        handler.abandoning.store(true, ordering: .relaxed)
        let flushBy = ContinuousClock.now + .milliseconds(500)
        while handler.inFlight.load(ordering: .relaxed) > 0, ContinuousClock.now < flushBy { usleep(2_000) }
        watchdog.withLock { $0?.stop(); $0 = nil }
        MHD_stop_daemon(d)
        if listenSocket >= 0 { close(listenSocket) }
        Unmanaged.passUnretained(handler).release()     // the retain taken in start()
    }

    /// Connections the kernel completed before the drain but libmicrohttpd had not
    /// accepted yet: their requests count as received, so they are served, not reset.
    private func adoptPendingConnections(_ listenSocket: Int32, into d: OpaquePointer) {
        let flags = fcntl(listenSocket, F_GETFL)
        _ = fcntl(listenSocket, F_SETFL, flags | O_NONBLOCK)
        while true {
            var storage = sockaddr_storage()
            var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
            let fd = withUnsafeMutablePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { accept(listenSocket, $0, &length) }
            }
            guard fd >= 0 else { return }
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            _ = withUnsafePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { MHD_add_connection(d, fd, $0, length) }
            }
        }
    }

        deinit {
        stop(gracePeriod: .zero)
        handler.workers.shutdown()
    }
}

/// Why `VPSServer.start()` failed.
public enum VPSServerError: Error, Sendable, Hashable, CustomStringConvertible {
    case invalidAddress(String)
    case invalidConfiguration(String)
    case bindFailed(String)
    case alreadyRunning

    public var description: String {
        switch self {
        case .invalidAddress(let m), .invalidConfiguration(let m), .bindFailed(let m): return m
        case .alreadyRunning: return "the server is already running"
        }
    }
}
