import Foundation
import Testing
import Benchmarks
import VPSClient
import VPSServer
import TestSupport
import ServerTestSupport

@Suite struct LoadGeneratorTests {
    @Test func runsEveryRequestOnceAtEachConcurrency() async throws {
        let f = try ServerFixture()
        // A 64 KB body, about the size of a VGA JPEG frame.
        let image = ServerFixture.pngHeader(width: 64, height: 48) + [UInt8](repeating: 7, count: 64 * 1024)
        let frames = [VPSLoadGenerator.Frame(image: image, request: ServerFixture.request())]
        var before = 0
        for c in [1, 4, 16] {
            let r = try await VPSLoadGenerator.run(baseURL: f.server.baseURL, token: f.allMaps, frames: frames,
                                                   concurrency: c, requests: 48)
            #expect(r.requests == 48 && r.errors == 0 && r.localized == 48)
            #expect(r.p50Ms > 0 && r.p50Ms <= r.p99Ms && r.requestsPerSecond > 0)
            #expect(r.clientCPUSeconds > 0 && r.clientCPUSeconds < r.seconds * Double(c))
            // Warm-up requests (one per worker) come on top of the timed ones.
            let calls = f.engine.calls.load(ordering: .relaxed)
            #expect(calls - before == 48 + c)
            before = calls
        }
    }

    @Test func aConnectionTheServerClosesIsOpenedAgain() async throws {
        let f = try ServerFixture()
        let image = ServerFixture.pngHeader(width: 64, height: 48) + [UInt8](repeating: 7, count: 1024)
        let frames = [VPSLoadGenerator.Frame(image: image, request: ServerFixture.request())]
        // A refused token is answered from the headers with `Connection: close` (the body is
        // not read): every request must then come on a new connection, and get its answer.
        let refused = try VPSLoadConnection(baseURL: f.server.baseURL, token: "arc_not-a-token", frames: frames)
        let valid = try VPSLoadConnection(baseURL: f.server.baseURL, token: f.allMaps, frames: frames)
        let outcomes = await offThread { [refused.localize(frame: 0), refused.localize(frame: 0), valid.localize(frame: 0)] }
        #expect(outcomes[0].status == 401 && outcomes[1].status == 401)
        #expect(outcomes[0].failure?.contains("invalid_token") == true && !outcomes[0].localized)
        #expect(outcomes[2].status == 200 && outcomes[2].localized && outcomes[2].failure == nil)
    }

    @Test func aKeptAliveConnectionTheServerClosedWhileIdleIsOpenedAgain() async throws {
        // The server closes a connection idle for 1 s: the next request on it meets a closed
        // socket and must be sent again on a new connection, not counted as an error.
        let f = try ServerFixture(configuration: VPSServerConfiguration(port: 0, localizationBudgetSeconds: 600,
                                                                        connectionTimeoutSeconds: 1))
        let image = ServerFixture.pngHeader(width: 64, height: 48) + [UInt8](repeating: 7, count: 1024)
        let frames = [VPSLoadGenerator.Frame(image: image, request: ServerFixture.request())]
        let c = try VPSLoadConnection(baseURL: f.server.baseURL, token: f.allMaps, frames: frames)
        // Opened and left unused past the timeout: its first request meets a closed socket too.
        let unused = try VPSLoadConnection(baseURL: f.server.baseURL, token: f.allMaps, frames: frames)
        let outcomes = await offThread { () -> [VPSLoadConnection.Outcome] in
            let first = c.localize(frame: 0)
            Thread.sleep(forTimeInterval: 3)
            return [first, c.localize(frame: 0), unused.localize(frame: 0)]
        }
        #expect(outcomes.allSatisfy { $0.status == 200 && $0.localized && $0.failure == nil }, "\(outcomes)")
        #expect(f.engine.calls.load(ordering: .relaxed) == 3)
        #expect(f.log.lines.withLock { $0.count } == 3)
    }

    @Test func reportsFailuresInsteadOfThrowing() async throws {
        let f = try ServerFixture()
        let frames = [VPSLoadGenerator.Frame(image: [1, 2, 3], request: ServerFixture.request())]   // not an image: 422
        let r = try await VPSLoadGenerator.run(baseURL: f.server.baseURL, token: f.allMaps, frames: frames,
                                               concurrency: 2, requests: 6)
        #expect(r.errors == 6 && r.localized == 0)
        #expect(r.firstError?.contains("422") == true)
    }
}
