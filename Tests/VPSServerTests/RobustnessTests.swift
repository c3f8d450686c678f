import Foundation
import Support
import Testing
import VPSClient
import VPSServer
import TestSupport
import ServerTestSupport

/// Load, stalled clients, graceful stop, metrics and transport failures, against a real
/// server on a loopback port.
@Suite struct RobustnessTests {
    @Test func sixteenConcurrentClientsTimesTwentyFiveRequestsWithoutErrors() async throws {
        let f = try ServerFixture()
        let image = ServerFixture.pngHeader(width: 64, height: 48)
        let failures = try await withThrowingTaskGroup(of: Int.self) { group in
            for i in 0..<16 {
                let client = try f.client(f.allMaps)
                group.addTask {
                    var failed = 0
                    for j in 0..<25 {
                        do {
                            let r = try await client.localize(image: image, request: ServerFixture.request(mapId: (i + j) % 2 == 0 ? "gallery" : "lobby"))
                            if r.status != .localized { failed += 1 }
                        } catch {
                            failed += 1
                        }
                    }
                    return failed
                }
            }
            return try await group.reduce(0, +)
        }
        #expect(failures == 0)
        #expect(f.engine.calls.load(ordering: .relaxed) == 400)
        #expect(try await f.client(nil).health().status == "ok")
        let metrics = try await f.client(nil).metricsText()
        #expect(metrics.contains(#"arcloud_http_requests_total{route="/v1/localize",method="POST",status="200"} 400"#))
        #expect(metrics.contains(#"arcloud_localizations_total{outcome="localized"} 400"#))
        #expect(metrics.contains(#"arcloud_http_request_duration_seconds_count{route="/v1/localize"} 400"#))
    }

    @Test func stalledClientsTimeOutWhileOthersAreServed() async throws {
        let f = try ServerFixture(configuration: VPSServerConfiguration(port: 0, connectionTimeoutSeconds: 1))
        // One client stalls inside its headers, another inside its body.
        let inHeaders = try RawConnection(port: f.server.port)
        inHeaders.send("POST /v1/localize HTTP/1.1\r\nHost: t\r\nAuthoriz")
        let inBody = try RawConnection(port: f.server.port)
        inBody.send(localizePost(token: f.allMaps, contentType: "multipart/form-data; boundary=b", body: [1, 2, 3], contentLength: 1000))
        let client = try f.client(nil)
        for _ in 0..<20 { #expect(try await client.health().status == "ok") }
        // `closed` means the server hung up (the test never closes them): the 1 s idle
        // timeout. The generous read bound only matters on a starved CI machine.
        let a = inHeaders.readResponse(timeout: 60)
        let b = inBody.readResponse(timeout: 60)
        #expect(a.closed && b.closed)
        #expect(a.text.isEmpty)
        #expect(try await client.health().status == "ok")
        f.server.stop()
        let outcomes = f.log.lines.withLock { $0 }.compactMap { try? JSONDecoder().decode(AccessLogEntry.self, from: Data($0.utf8)) }
        // The stalled body had begun a request: it is logged as a timeout without status.
        #expect(outcomes.contains { $0.route == "/v1/localize" && $0.status == 0 && $0.outcome == "timeout" })
    }

    @Test func gracefulStopFinishesInFlightRequestsAndRefusesNewOnes() async throws {
        let gate = DispatchSemaphore(value: 0)
        let f = try ServerFixture(engine: TestOnlyEngine(gate: gate))
        let inFlight = rawExchangeStarted(port: f.server.port, localizeRaw(token: f.allMaps))
        // Wait until the request is inside the engine.
        #expect(await waitOnSemaphore(f.engine.entered, seconds: 60))
        // `stop` blocks while it waits: on a thread of its own, so that it neither holds one of
        // the concurrency pool's two threads on a 2-core machine nor waits behind a Dispatch
        // pool that other tests have run dry. The grace period only bounds that wait (the
        // gate opens as soon as refusal is seen); it is long so that a starved machine does
        // not close the in-flight request before the gate opens.
        let server = f.server, port = f.server.port
        let stopped = ThreadTask { server.stop(gracePeriod: .seconds(300)) }
        // The listening socket closes first: new connections are refused.
        let refused = await offThread { () -> Bool in
            let by = Date().addingTimeInterval(120)
            while Date() < by {
                do { _ = try RawConnection(port: port) } catch { return true }
                usleep(5_000)
            }
            return false
        }
        #expect(refused)
        #expect(f.server.requestsInFlight == 1)
        gate.signal()
        let answer = try await inFlight.value.get()
        #expect(answer.status == 200 && answer.body.contains(#""status":"localized""#))
        await stopped.value
        #expect(f.server.requestsInFlight == 0)
    }

    @Test func aLocalizationLongerThanTheIdleTimeoutIsStillAnswered() async throws {
        let gate = DispatchSemaphore(value: 0)
        defer { gate.signal() }
        let f = try ServerFixture(configuration: VPSServerConfiguration(port: 0, localizationBudgetSeconds: 600,
                                                                        connectionTimeoutSeconds: 1),
                                  engine: TestOnlyEngine(gate: gate))
        let inFlight = rawExchangeStarted(port: f.server.port, localizeRaw(token: f.allMaps))
        #expect(await waitOnSemaphore(f.engine.entered, seconds: 60))
        // The server, not the client, is busy: the 1 s idle timeout must not close it.
        try await Task.sleep(for: .seconds(3))
        gate.signal()
        let answer = try await inFlight.value.get()
        #expect(answer.status == 200 && answer.body.contains(#""status":"localized""#), "\(answer.status) \(answer.body)")
    }

    @Test func aLocalizationStillRunningAtTheDrainTimeoutIsStoppedAndAnswered503() async throws {
        let gate = DispatchSemaphore(value: 0)
        defer { gate.signal() }
        let f = try ServerFixture(engine: TestOnlyEngine(gate: gate))
        let inFlight = rawExchangeStarted(port: f.server.port, localizeRaw(token: f.allMaps))
        #expect(await waitOnSemaphore(f.engine.entered, seconds: 60))
        // The gate stays closed: the drain timeout passes with the localization running on
        // its connection's thread. It is cancelled, answered, and `stop` returns.
        // Timed on the thread that stops the server: awaiting the task also waits for the
        // concurrency pool, which a loaded run (ASan) holds for tens of seconds.
        let server = f.server
        let stopTook = await ThreadTask { () -> Duration in
            let started = ContinuousClock.now
            server.stop(gracePeriod: .milliseconds(300))
            return ContinuousClock.now - started
        }.value
        #expect(stopTook < .seconds(30), "stop took \(stopTook)")
        let answer = try await inFlight.value.get()
        #expect(answer.status == 503 && answer.body.contains(#""code":"drain_timeout""#), "\(answer.body)")
        #expect(f.server.requestsInFlight == 0)
    }

    @Test func clientReportsConnectionRefusedAsTransient() async throws {
        let f = try ServerFixture()
        let port = f.server.port
        f.server.stop()
        let client = try VPSClient(baseURL: "http://127.0.0.1:\(port)", token: nil)
        do {
            _ = try await client.health()
            Issue.record("expected a transport failure")
        } catch {
            guard case .transport(let t) = error else { Issue.record("got \(error)"); return }
            #expect(t.kind == .connectionRefused)
            #expect(error.isTransient)
            #expect(error.httpStatus == nil)
        }
    }

    @Test func clientReportsTimeoutAsTransient() async throws {
        let gate = DispatchSemaphore(value: 0)
        let f = try ServerFixture(engine: TestOnlyEngine(gate: gate))
        defer { gate.signal() }
        let client = try VPSClient(baseURL: f.server.baseURL, token: f.allMaps,
                                   options: .init(requestTimeout: .milliseconds(300)))
        do {
            _ = try await client.localize(image: ServerFixture.pngHeader(width: 64, height: 48), request: ServerFixture.request())
            Issue.record("expected a timeout")
        } catch {
            guard case .transport(let t) = error else { Issue.record("got \(error)"); return }
            #expect(t.kind == .timedOut)
            #expect(error.isTransient)
        }
    }

    @Test func serverRefusesABadHostAndABusyPort() throws {
        let bad = VPSServer(engine: TestOnlyEngine(), tokens: try SQLiteTokenStore(path: ":memory:"),
                            configuration: .init(host: "not-an-address"))
        #expect(throws: VPSServerError.self) { try bad.start() }
        let f = try ServerFixture()
        let clash = VPSServer(engine: TestOnlyEngine(), tokens: f.store, configuration: .init(port: f.server.port))
        #expect(throws: VPSServerError.self) { try clash.start() }
    }
}

/// Waits for a semaphore on a thread of its own (`offThread`) so the Swift concurrency pool
/// is not blocked, and a Dispatch pool run dry by other tests does not delay the wait.
func waitOnSemaphore(_ s: DispatchSemaphore, seconds: Double) async -> Bool {
    nonisolated(unsafe) let s = s
    return await offThread { s.wait(timeout: .now() + seconds) == .success }
}
