import Foundation
import GraffityARCloud
import Support
import Testing
import VPSServer

/// The session against a real `VPSServer` on loopback, through the real HTTP backend.
@MainActor
@Suite("HTTP lifecycle")
struct HTTPLifecycleTests {
    static func configuration(server: URL, token: String, attempts: Int = 5) -> GraffityARCloud.Configuration {
        .init(mapId: LocalVPSServer.mapId, serverURL: server, accessToken: token, vpsRequestInterval: .seconds(1),
              retryPolicy: RetryPolicy(maxAttempts: attempts, initialBackoff: .milliseconds(50)),
              requestTimeout: .seconds(60), jitterSeed: 1)   // real time: never reached on loopback
    }

    @Test("a server answering 401 ends the session with invalidAccessToken")
    func rejectedToken() async throws {
        let local = try LocalVPSServer(tokens: LocalVPSServer.makeTokenStore())
        let sdk = GraffityARCloud(configuration: Self.configuration(server: local.url, token: AccessToken.generate()))
        var stream = sdk.stateStream().makeAsyncIterator()
        let host = try sdk.makeVirtualReplay(session: Fixtures.session(), images: PNGHeaderImages())
        try await host.loadView()

        #expect(sdk.isShutDown)
        #expect(host.isRemoved)
        #expect(sdk.state == .shutDown(.invalidAccessToken))
        #expect(await take(4, from: &stream) == [
            .initial, .vps(.initializing, ready: false),
            .vps(.failed(.invalidAccessToken), ready: false, error: .invalidAccessToken),
            .shutDown(.invalidAccessToken),
        ])
        #expect(local.engine.localizeCalls == 0)
        await #expect(throws: ARCloudError.sessionShutDown) { try await host.advance(by: .seconds(1)) }
    }

    @Test("a token revoked mid-session is rejected on the next request and ends the session")
    func tokenRevokedMidSession() async throws {
        let tokens = try LocalVPSServer.makeTokenStore()
        let issued = try tokens.create(name: "tester")
        let local = try LocalVPSServer(tokens: tokens)
        let sdk = GraffityARCloud(configuration: Self.configuration(server: local.url, token: issued.token))
        let host = try sdk.makeVirtualReplay(session: Fixtures.session(), images: PNGHeaderImages())
        try await host.loadView()
        try await host.advance(by: .zero)
        #expect(sdk.state == .vps(.localized(sectionId: "main")))
        #expect(try #require(host.cameraPose).error(to: LocalVPSServer.pose).translation < 1e-9)

        try tokens.revoke(id: issued.record.id)
        try await host.advance(by: .seconds(2))
        #expect(sdk.isShutDown)
        #expect(sdk.state.lastError == .invalidAccessToken)
        #expect(host.vpsRequestCount == 2)  // the rejected one ended it: no request at t = 2 s
        #expect(local.engine.localizeCalls == 1)
    }

    @Test("a server that drops connections and then recovers: the drops stay invisible")
    func dropsThenRecovers() async throws {
        let tokens = try LocalVPSServer.makeTokenStore()
        let token = try tokens.create(name: "tester").token
        let recovered = Locked<LocalVPSServer?>(nil)
        let takeoverFailure = Locked<String?>(nil)
        let listener = try DroppingListener(drops: 3) { port in
            recovered.withLock { server in
                do { server = try LocalVPSServer(port: port, tokens: tokens) } catch {
                    takeoverFailure.withLock { $0 = "\(error)" }
                }
            }
        }
        defer { listener.close() }
        let url = URL(string: "http://127.0.0.1:\(listener.port)")!
        let sdk = GraffityARCloud(configuration: Self.configuration(server: url, token: token, attempts: 5))
        let received = Received()
        let subscription = sdk.subscribe { received.states.append($0) }
        let host = try sdk.makeVirtualReplay(session: Fixtures.session(), images: PNGHeaderImages())

        try await host.loadView()
        #expect(listener.droppedConnections == 3)
        #expect(recovered.withLock { $0 != nil },
                "the real server did not take over the listener's port: \(takeoverFailure.withLock { $0 } ?? "")")
        try await host.advance(by: .zero)
        #expect(sdk.state == .vps(.localized(sectionId: "main")))
        #expect(received.states.allSatisfy { $0.lastError == nil })
        #expect(received.states.map(\.vpsState) == [.notStarted, .initializing, .localizing, .localized(sectionId: "main")])
        subscription.cancel()
    }

    @Test("a server that keeps dropping connections: the failure surfaces when the budget is spent")
    func dropsUntilBudgetSpent() async throws {
        let listener = try DroppingListener(drops: .max)
        defer { listener.close() }
        let url = URL(string: "http://127.0.0.1:\(listener.port)")!
        let sdk = GraffityARCloud(configuration: Self.configuration(server: url, token: AccessToken.generate(), attempts: 3))
        let host = try sdk.makeVirtualReplay(session: Fixtures.session(), images: PNGHeaderImages())

        try await host.loadView()
        #expect(listener.droppedConnections == 3)
        Fixtures.expectBackendUnavailable(sdk, mentioning: "3 attempts")
    }
}
