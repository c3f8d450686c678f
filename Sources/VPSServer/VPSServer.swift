import CMicroHTTPD
import Foundation
import Synchronization
import VPS

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
/// A pool of worker threads each runs an event loop over its share of the connections; a
/// localization runs on the worker that received it. Input can never crash the server:
/// every malformed request becomes a JSON error with its status.
public final class VPSServer: Sendable {
    private let handler: RequestHandler
    private let daemon = Mutex<OpaquePointer?>(nil)
    private let boundPort = Atomic<UInt16>(0)

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
        guard c.threads >= 1, c.maxConnections >= 1, c.connectionTimeoutSeconds >= 1, c.maxBodyBytes >= 1 else {
            throw .invalidConfiguration("threads, maxConnections, connectionTimeoutSeconds and maxBodyBytes must be positive")
        }
        let address = try SocketAddress(host: c.host, port: c.port)
        try daemon.withLock { (d: inout OpaquePointer?) throws(VPSServerError) in
            guard d == nil else { throw .alreadyRunning }
            handler.draining.store(false, ordering: .relaxed)       // a restart after stop() serves again
            var flags = MHD_USE_INTERNAL_POLLING_THREAD.rawValue | MHD_USE_EPOLL.rawValue | MHD_USE_ITC.rawValue
            if address.isIPv6 { flags |= MHD_USE_IPv6.rawValue }
            let cls = Unmanaged.passRetained(handler).toOpaque()
            let started = address.withSockaddr { sa in
                cmhd_start_daemon(flags, c.port, sa, accessHandlerCallback, cls,
                                  requestCompletedCallback, cls, UInt32(c.threads), UInt32(c.maxConnections),
                                  UInt32(c.connectionTimeoutSeconds), 0)
            }
            guard let started else {
                Unmanaged<RequestHandler>.fromOpaque(cls).release()
                throw .bindFailed("cannot listen on \(c.host):\(c.port) (address in use or not available)")
            }
            d = started
            boundPort.store(cmhd_bound_port(started), ordering: .releasing)
        }
    }

    /// Graceful stop: stops accepting connections, answers requests that arrive on open
    /// connections with 503, waits up to `gracePeriod` (default from the configuration)
    /// for in-flight requests, then closes everything. Safe to call more than once.
    public func stop(gracePeriod: Duration? = nil) {
        guard let d = daemon.withLock({ (d: inout OpaquePointer?) -> OpaquePointer? in
            let current = d
            d = nil
            return current
        }) else { return }
        handler.draining.store(true, ordering: .relaxed)
        let listenSocket = MHD_quiesce_daemon(d)
        if listenSocket >= 0 { close(listenSocket) }
        let grace = gracePeriod ?? .milliseconds(Int(configuration.shutdownGracePeriodSeconds * 1000))
        let deadline = ContinuousClock.now + grace
        while handler.inFlight.load(ordering: .relaxed) > 0, ContinuousClock.now < deadline {
            usleep(2_000)
        }
        MHD_stop_daemon(d)
        Unmanaged.passUnretained(handler).release()     // the retain taken in start()
    }

    deinit { stop(gracePeriod: .zero) }
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
