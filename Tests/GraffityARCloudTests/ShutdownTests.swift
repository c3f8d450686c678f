import GraffityARCloud
import Testing

@MainActor
@Suite("Shutdown")
struct ShutdownTests {
    @Test("shutdown publishes a reset snapshot marked isShutDown, once: it is idempotent")
    func idempotent() async throws {
        let (sdk, host) = try Fixtures.make()
        var stream = sdk.stateStream().makeAsyncIterator()
        try await host.loadView()
        try await host.advance(by: .zero)

        await sdk.shutdown()
        #expect(sdk.isShutDown)
        #expect(sdk.state == .shutDown())
        #expect(host.isRemoved)
        await sdk.shutdown()
        #expect(sdk.state == .shutDown())
        let seen = await take(5, from: &stream)
        #expect(seen.last == .shutDown())
        #expect(seen.filter { $0 == .shutDown() }.count == 1)
        #expect(seen.first == .initial)
    }

    @Test("any later use is refused with sessionShutDown and changes nothing")
    func refusesLaterUse() async throws {
        let backend = ScriptedBackend([.fix(0)])
        let (sdk, host) = try Fixtures.make(backend)
        try await host.loadView()
        await sdk.shutdown()
        let after = sdk.state

        let beforeReset = sdk.state
        await sdk.reset()  // no effect after shutdown (it does not throw, as on the phone SDK)
        #expect(sdk.state == beforeReset)
        #expect(throws: ARCloudError.sessionShutDown) {
            try sdk.makeViewController(session: Fixtures.session(), images: StubImages())
        }
        await #expect(throws: ARCloudError.sessionShutDown) { try await host.advance(by: .seconds(1)) }
        await #expect(throws: ARCloudError.sessionShutDown) { try await host.loadView() }
        await #expect(throws: ARCloudError.sessionShutDown) { try await host.runToEnd() }
        #expect(sdk.state == after)
        #expect(backend.requestCount == 0)
        #expect(ARCloudError.sessionShutDown.localizedDescription.contains("shut down"))
    }

    @Test("shutdown while a localization request is in flight cancels it and ignores its answer")
    func inFlightRequest() async throws {
        let backend = ScriptedBackend([.hold])
        let (sdk, host) = try Fixtures.make(backend)
        let delegate = RecordingDelegate()
        sdk.delegate = delegate
        try await host.loadView()
        let replay = Task { try await host.advance(by: .seconds(3)) }
        await backend.waitForRequests(1)
        #expect(sdk.state == .vps(.localizing))

        await sdk.shutdown()
        #expect(backend.cancellations == 1)
        try await replay.value  // the replay stops without waiting for the backend
        #expect(host.currentFrame?.id == "f0")

        backend.release(.success(Fixtures.fix(0)))
        await backend.waitForReturns(1)
        await settleMainActor()
        #expect(sdk.state == .shutDown())
        #expect(delegate.localizationEvents.isEmpty)
        #expect(backend.requestCount == 1)
    }
}
