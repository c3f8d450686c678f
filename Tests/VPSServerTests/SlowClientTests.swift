import Foundation
import Synchronization
import Testing
import VPS
import VPSServer

/// Slow-client defence against a real server on loopback: the per-address connection cap,
/// the request-head deadline and the minimum body rate, none of which trickling extends.
@Suite struct SlowClientTests {
    @Test func threeHundredTricklingConnectionsFromOneAddressDoNotLockOutAnother() async throws {
        let f = try ServerFixture(configuration: VPSServerConfiguration(port: 0, threads: 2, maxConnections: 256,
                                                                        maxConnectionsPerClient: 32,
                                                                        connectionTimeoutSeconds: 15))
        var dripping: [RawConnection] = []
        for _ in 0..<300 { dripping.append(try RawConnection(port: f.server.port)) }
        let trickle = Trickle(dripping, byte: UInt8(ascii: "G"), every: 0.2)
        defer { trickle.stop() }
        try await Task.sleep(for: .milliseconds(500))

        // Another client address is served at once, again and again.
        var slowest = 0.0
        for _ in 0..<5 {
            let t0 = Date()
            let r = try rawExchange(port: f.server.port, "GET /healthz HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n",
                                    from: "127.0.0.2", timeout: 10)
            slowest = max(slowest, Date().timeIntervalSince(t0))
            #expect(r.status == 200 && r.body.contains(#""status":"ok""#))
        }
        #expect(slowest < 1.0, "healthz from 127.0.0.2 took \(slowest) s")
        // The cap turned away all but 32 of the 300 from 127.0.0.1.
        let open = trickle.stillOpen
        #expect(open <= 32, "\(open) trickling connections still open")
    }

    @Test func aTrickledHeadIsAnswered408AtTheHeadDeadline() async throws {
        let f = try ServerFixture(configuration: VPSServerConfiguration(port: 0, threads: 2, connectionTimeoutSeconds: 30,
                                                                        headTimeoutSeconds: 1))
        let c = try RawConnection(port: f.server.port)
        c.send("GET /healthz HTTP/1.1\r\nHost: t\r\n")
        let trickle = Trickle([c], byte: UInt8(ascii: "x"), every: 0.1, prefix: Array("X-Slow: ".utf8))
        defer { trickle.stop() }
        let t0 = Date()
        let (text, closed) = c.readResponse(timeout: 20)
        let elapsed = Date().timeIntervalSince(t0)
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
        let f = try ServerFixture(configuration: VPSServerConfiguration(port: 0, threads: 2, connectionTimeoutSeconds: 30,
                                                                        minBodyBytesPerSecond: 1000))
        let c = try RawConnection(port: f.server.port)
        c.send(localizePost(token: f.allMaps, contentType: "multipart/form-data; boundary=b", body: [], contentLength: 100_000))
        let trickle = Trickle([c], byte: UInt8(ascii: "z"), every: 0.1)
        defer { trickle.stop() }
        let t0 = Date()
        let (text, _) = c.readResponse(timeout: 30)
        let elapsed = Date().timeIntervalSince(t0)
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
