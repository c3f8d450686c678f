import Foundation
import Geometry
import Testing
import VPSClient
import VPSServer
import TestSupport
import ServerTestSupport

/// Localizations on the worker pool, against a real server on loopback: cheap requests are
/// not held back by busy workers, a full queue answers 503 at once, the time budget answers
/// a localization that takes too long, and the pixel cap refuses from the image header.
@Suite struct WorkerPoolTests {
    private static let image = ServerFixture.pngHeader(width: 64, height: 48)

    @Test func healthStaysFastWhileEveryWorkerIsBusyAndAFullQueueAnswers503() async throws {
        let gate = DispatchSemaphore(value: 0)
        let f = try ServerFixture(configuration: VPSServerConfiguration(port: 0, localizationWorkers: 2,
                                                                        localizationQueue: 1, localizationBudgetSeconds: 600,
                                                                        connectionTimeoutSeconds: 30),
                                  engine: TestOnlyEngine(gate: gate))
        let port = f.server.port, token = f.allMaps
        let healthz = Array("GET /healthz HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n".utf8)
        let maps = Array("GET /v1/maps HTTP/1.1\r\nHost: t\r\nAuthorization: Bearer \(token)\r\nConnection: close\r\n\r\n".utf8)
        let healthAndMaps: @Sendable () throws -> Void = {
            let h = try rawExchange(port: port, healthz, timeout: 10)
            let m = try rawExchange(port: port, maps, timeout: 10)
            #expect(h.status == 200 && m.status == 200)
        }
        let idle = try await latenciesOffThread(5, healthAndMaps)
        // Two localizations occupy both workers, a third waits in the queue.
        let request = localizeRaw(token: token)
        let held = (0..<3).map { _ in rawExchangeStarted(port: port, request) }
        #expect(await waitOnSemaphore(f.engine.entered, seconds: 60))
        #expect(await waitOnSemaphore(f.engine.entered, seconds: 60))
        // Wait until the third is queued (polled on a thread of its own: a loaded test run
        // starves Dispatch, which the client's transfers run on).
        let metricsRequest = Array("GET /metrics HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n".utf8)
        let queued = await offThread { () -> Bool in
            let by = Date().addingTimeInterval(120)
            while Date() < by {
                if let m = try? rawExchange(port: port, metricsRequest), m.body.contains("arcloud_localization_queue_length 1") { return true }
                usleep(10_000)
            }
            return false
        }
        #expect(queued)
        let plain = try f.client(nil)

        // The fourth finds the workers busy and the queue full: 503 with Retry-After, at once.
        let refused = try await rawExchangeOffThread(port: port, request, timeout: 30)
        #expect(refused.status == 503)
        #expect(refused.headers["retry-after"] == "1")
        #expect(refused.body.contains(#""code":"overloaded""#))

        // Health, metrics and the map listing do not wait behind the workers.
        let loaded = try await latenciesOffThread(20, healthAndMaps)
        #expect(loaded.medianOfSorted < latencyBound(idle: idle.medianOfSorted),
                "health + maps took \(loaded) s while the workers were busy (\(idle) s idle)")
        let metrics = try await plain.metricsText()
        #expect(metrics.contains("arcloud_localization_workers_busy 2"))
        #expect(metrics.contains("arcloud_localization_queue_length 1"))

        for _ in 0..<3 { gate.signal() }
        for t in held {
            let r = try await t.value.get()
            #expect(r.status == 200 && r.body.contains(#""status":"localized""#))
        }
    }

    @Test func aLocalizationOverItsTimeBudgetIsStoppedAndAnswered503() async throws {
        let gate = DispatchSemaphore(value: 0)
        let f = try ServerFixture(configuration: VPSServerConfiguration(port: 0, localizationWorkers: 1,
                                                                        localizationBudgetSeconds: 2,
                                                                        connectionTimeoutSeconds: 30),
                                  engine: TestOnlyEngine(gate: gate))
        defer { gate.signal() }
        // It runs past its budget: the engine is told to stop, and the answer is 503 while
        // the gate is still closed.
        // The client waits as long as the held requests of the other tests: a loaded run (ASan)
        // can starve the server's threads, and the gate stays closed until the answer is in.
        let r = try await rawExchangeOffThread(port: f.server.port, localizeRaw(token: f.allMaps), timeout: 600)
        #expect(r.status == 503)
        #expect(r.headers["content-type"] == "application/json")
        #expect(r.body.contains(#""code":"time_budget_exceeded""#) && r.body.contains("running"), "\(r.body)")
        // The core it held is free again: the next localization is served.
        gate.signal()
        let next = try await rawExchangeOffThread(port: f.server.port, localizeRaw(token: f.allMaps))
        #expect(next.status == 200, "\(next.body)")
        let metrics = try await f.client(nil).metricsText()
        #expect(metrics.contains(#"arcloud_http_requests_total{route="/v1/localize",method="POST",status="503"} 1"#))
        #expect(metrics.contains(#"arcloud_localization_workers_busy 0"#))
        // The stopped localization counts as failed once, the next one as localized.
        #expect(metrics.contains(#"arcloud_localizations_total{outcome="failed"} 1"#))
        #expect(metrics.contains(#"arcloud_localizations_total{outcome="localized"} 1"#))
    }

    @Test func aQueuedLocalizationIsAnswered503AtItsDeadlineWithoutStarting() async throws {
        let gate = DispatchSemaphore(value: 0)
        // The engine ignores cancellation (a stage that is not interrupted), so the one
        // running holds the only core past the budget of the one queued behind it.
        let f = try ServerFixture(configuration: VPSServerConfiguration(port: 0, localizationWorkers: 1,
                                                                        localizationBudgetSeconds: 2,
                                                                        connectionTimeoutSeconds: 30),
                                  engine: TestOnlyEngine(gate: gate, honoursCancellation: false))
        defer { gate.signal() }
        let port = f.server.port, request = localizeRaw(token: f.allMaps)
        let running = rawExchangeStarted(port: port, request)
        #expect(await waitOnSemaphore(f.engine.entered, seconds: 60))
        let queued = try await rawExchangeOffThread(port: port, request, timeout: 600)   // see above
        #expect(queued.status == 503)
        #expect(queued.body.contains(#""code":"time_budget_exceeded""#) && queued.body.contains("never started"),
                "\(queued.body)")
        #expect(f.engine.calls.load(ordering: .relaxed) == 1, "the queued localization never reached the engine")
        // An engine that finishes anyway, past its deadline, is answered with its result.
        gate.signal()
        let late = try await running.value.get()
        #expect(late.status == 200 && late.body.contains(#""status":"localized""#))
        // The queued localization that never started counts as failed, once.
        let metrics = try await f.client(nil).metricsText()
        #expect(metrics.contains(#"arcloud_localizations_total{outcome="failed"} 1"#))
    }

    @Test func thePixelCapRefusesFromTheImageHeader() async throws {
        let f = try ServerFixture(configuration: VPSServerConfiguration(port: 0, connectionTimeoutSeconds: 30))
        #expect(f.server.configuration.maxImagePixels == 4032 * 3024)
        // 6000 x 6000 with matching intrinsics: refused before any decoding (the test
        // engine never decodes; the call count proves the engine was not reached).
        let big = CameraIntrinsics(width: 6000, height: 6000, fx: 5000, fy: 5000, cx: 3000, cy: 3000)
        let r = try await rawExchangeOffThread(port: f.server.port, localizeRaw(token: f.allMaps, width: 6000, height: 6000, intrinsics: big))
        #expect(r.status == 422)
        #expect(r.body.contains(#""code":"image_too_large""#) && r.body.contains("36000000"))
        // A 12 MP phone photo (4032 x 3024) is within the default cap.
        let phone = CameraIntrinsics(width: 4032, height: 3024, fx: 3000, fy: 3000, cx: 2016, cy: 1512)
        let ok = try await rawExchangeOffThread(port: f.server.port, localizeRaw(token: f.allMaps, width: 4032, height: 3024, intrinsics: phone))
        #expect(ok.status == 200)
        #expect(f.engine.calls.load(ordering: .relaxed) == 1)

        let tight = try ServerFixture(configuration: VPSServerConfiguration(port: 0, maxImagePixels: 1000))
        let small = try await rawExchangeOffThread(port: tight.server.port, localizeRaw(token: tight.allMaps))
        #expect(small.status == 422 && small.body.contains("image_too_large"))
    }
}

/// A whole localize request (PNG header of the given size + matching intrinsics) for a raw socket.
func localizeRaw(token: String, width: Int = 64, height: Int = 48,
                 intrinsics: CameraIntrinsics = ServerFixture.intrinsics) -> [UInt8] {
    let json = try! JSONEncoder().encode(ServerFixture.request(intrinsics: intrinsics))
    let body = multipartBody(boundary: "b0undary", [("request", "application/json", Array(json)),
                                                    ("image", "image/png", ServerFixture.pngHeader(width: width, height: height))])
    return localizePost(token: token, contentType: "multipart/form-data; boundary=b0undary", body: body)
}

/// `rawExchange` on a thread of its own (`offThread`), so blocking reads do not hold the
/// concurrency pool (two threads on a 2-core machine, shared by every test running).
func rawExchangeOffThread(port: UInt16, _ request: [UInt8], from source: String? = nil,
                          timeout: Double = 60) async throws -> RawResponse {
    try await offThread { Result { try rawExchange(port: port, request, from: source, timeout: timeout) } }.get()
}
