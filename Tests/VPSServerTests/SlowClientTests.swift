import Foundation
import Synchronization
import Testing
import VPSServer
import TestSupport
import ServerTestSupport

/// Slow-client defence against a real server on loopback: the per-address connection cap,
/// the request-head deadline and the minimum body rate, none of which trickling extends.
@Suite struct SlowClientTests {
    @Test func threeHundredTricklingConnectionsFromOneAddressDoNotLockOutAnother() async throws {
        let f = try ServerFixture(configuration: VPSServerConfiguration(port: 0, maxConnections: 256,
                                                                        maxConnectionsPerClient: 32,
                                                                        connectionTimeoutSeconds: 15))
        let healthz = Array("GET /healthz HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n".utf8)
        let port = f.server.port
        let idle = try await latenciesOffThread(5) { _ = try rawExchange(port: port, healthz, from: "127.0.0.2") }
        var dripping: [RawConnection] = []
        for _ in 0..<300 { dripping.append(try RawConnection(port: f.server.port)) }
        let trickle = Trickle(dripping, byte: UInt8(ascii: "G"), every: 0.2)
        defer { trickle.stop() }
        try await Task.sleep(for: .milliseconds(500))

        // Another client address is served at once, again and again.
        let loaded = try await latenciesOffThread(9) {
            let r = try rawExchange(port: port, healthz, from: "127.0.0.2", timeout: 10)
            #expect(r.status == 200 && r.body.contains(#""status":"ok""#))
        }
        #expect(loaded.medianOfSorted < latencyBound(idle: idle.medianOfSorted),
                "healthz from 127.0.0.2 took \(loaded) s (\(idle) s before the trickle)")
        // The cap turned away all but 32 of the 300 from 127.0.0.1.
        let open = trickle.stillOpen
        #expect(open <= 32, "\(open) trickling connections still open")
    }

    @Test func aTrickledHeadIsAnswered408AtTheHeadDeadline() async throws {
        let f = try ServerFixture(configuration: VPSServerConfiguration(port: 0, connectionTimeoutSeconds: 30,
                                                                        headTimeoutSeconds: 1))
        let c = try RawConnection(port: f.server.port)
        c.send("GET /healthz HTTP/1.1\r\nHost: t\r\n")
        let trickle = Trickle([c], byte: UInt8(ascii: "x"), every: 0.1, prefix: Array("X-Slow: ".utf8))
        defer { trickle.stop() }
        // Timed on the reading thread: the test's own wait for a scheduler thread is not the server's.
        nonisolated(unsafe) let reader = c
        let (text, closed, elapsed) = await offThread {
            let t0 = Date()
            let (text, closed) = reader.readResponse(timeout: 20)
            return (text, closed, Date().timeIntervalSince(t0))
        }
        let r = try #require(RawResponse(text), "got \(text.debugDescription)")
        #expect(r.status == 408)
        #expect(r.headers["content-type"] == "application/json")
        #expect(r.body.contains(#""code":"head_timeout""#))
        #expect(elapsed < 10, "the head deadline took \(elapsed) s although bytes kept coming")
        _ = closed
        let logged = f.log.lines.withLock { $0 }.compactMap { try? JSONDecoder().decode(AccessLogEntry.self, from: Data($0.utf8)) }
        #expect(logged.contains { $0.status == 408 && $0.outcome == "head_timeout" })
        let metrics = try await f.client(nil).metricsText()
        #expect(metrics.contains(#"arcloud_http_requests_total{route="unmatched",method="OTHER",status="408"} 1"#))
    }

    @Test func aTrickledBodyIsAnswered408BelowTheMinimumRate() async throws {
        let f = try ServerFixture(configuration: VPSServerConfiguration(port: 0, connectionTimeoutSeconds: 30,
                                                                        minBodyBytesPerSecond: 1000))
        let c = try RawConnection(port: f.server.port)
        c.send(localizePost(token: f.allMaps, contentType: "multipart/form-data; boundary=b", body: [], contentLength: 100_000))
        let trickle = Trickle([c], byte: UInt8(ascii: "z"), every: 0.1)
        defer { trickle.stop() }
        nonisolated(unsafe) let reader = c
        let (text, elapsed) = await offThread {
            let t0 = Date()
            let text = reader.readResponse(timeout: 30).text
            return (text, Date().timeIntervalSince(t0))
        }
        let r = try #require(RawResponse(text), "got \(text.debugDescription)")
        #expect(r.status == 408)
        #expect(r.body.contains(#""code":"body_too_slow""#))
        #expect(elapsed < 15, "the body rate took \(elapsed) s to act")
        // The request had begun: it is logged on its route once the connection ends.
        let by = Date().addingTimeInterval(20)
        var logged: [AccessLogEntry] = []
        while Date() < by, !logged.contains(where: { $0.outcome == "body_too_slow" }) {
            try await Task.sleep(for: .milliseconds(20))
            logged = f.log.lines.withLock { $0 }.compactMap { try? JSONDecoder().decode(AccessLogEntry.self, from: Data($0.utf8)) }
        }
        #expect(logged.contains { $0.route == "/v1/localize" && $0.status == 408 && $0.outcome == "body_too_slow" })
    }
}

/// Sends one byte to each connection every `every` seconds on its own thread, as a slow
/// client does, until `stop()`; counts the connections the server has not closed.
final class Trickle: @unchecked Sendable {   // connections are touched only by the thread until stop() joins it
    private let connections: [RawConnection]
    private let stopping = Atomic<Bool>(false)
    private let done = DispatchSemaphore(value: 0)
    private let open = Atomic<Int>(0)

    init(_ connections: [RawConnection], byte: UInt8, every interval: Double, prefix: [UInt8] = []) {
        self.connections = connections
        open.store(connections.count, ordering: .relaxed)
        for c in connections { c.setSendTimeout(seconds: 1) }
        if !prefix.isEmpty { for c in connections { c.send(prefix) } }
        Thread { [self] in
            var alive = Array(repeating: true, count: self.connections.count)
            while !stopping.load(ordering: .relaxed) {
                for (i, c) in self.connections.enumerated() where alive[i] {
                    if !c.send([byte]) { alive[i] = false }
                }
                open.store(alive.filter { $0 }.count, ordering: .relaxed)
                usleep(UInt32(interval * 1_000_000))
            }
            done.signal()
        }.start()
    }

    /// Connections a send still succeeded on in the last round.
    var stillOpen: Int { open.load(ordering: .relaxed) }

    func stop() {
        guard !stopping.exchange(true, ordering: .relaxed) else { return }
        done.wait()
    }
}

/// The times of `n` runs of blocking `body`, in seconds, fastest first, timed on a thread of
/// its own (so the wait for a scheduler thread under a loaded test run is not counted).
func latenciesOffThread(_ n: Int, _ body: @escaping @Sendable () throws -> Void) async throws -> [Double] {
    try await offThread { () -> Result<[Double], Error> in
        Result {
            var times: [Double] = []
            for _ in 0..<n {
                let t0 = Date()
                try body()
                times.append(Date().timeIntervalSince(t0))
            }
            return times.sorted()
        }
    }.get()
}

extension Array where Element == Double {
    /// The middle of sorted latencies: one request a starved machine deschedules for a second
    /// moves the slowest, not this. A request held behind busy workers waits for its gate (or
    /// its 10 s timeout), and so do all the others: that moves the median far beyond the bound.
    var medianOfSorted: Double { isEmpty ? 0 : self[count / 2] }
}

/// The median latency a cheap request must stay under while the server is loaded: 1 s
/// (health and listings answer at once under load), unless the same request measured on the
/// idle server in the same test was already slow (a test machine shared with compilers):
/// then four times that. A request held behind busy workers or locked out by slow clients
/// waits for the gate or the 10 s timeout, far beyond either.
func latencyBound(idle: Double) -> Double { max(1.0, 4 * idle) }
