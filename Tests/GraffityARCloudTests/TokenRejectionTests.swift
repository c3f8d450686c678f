import GraffityARCloud
import Testing

@MainActor
@Suite("Token rejection")
struct TokenRejectionTests {
    @Test("a 401 reports invalidAccessToken, then shuts the session down")
    func unauthorizedShutsDown() async throws {
        let backend = ScriptedBackend([.fix(0), .fail(.unauthorized("token revoked"))],
                                      fallback: .fix(20))
        let (sdk, host) = try Fixtures.make(backend, retry: .default)
        let delegate = RecordingDelegate()
        sdk.delegate = delegate
        var stream = sdk.stateStream().makeAsyncIterator()
        try await host.loadView()
        try await host.runToEnd()

        #expect(backend.requestCount == 2)  // no retry of a 401, no request after it
        #expect(sdk.isShutDown)
        #expect(host.isRemoved)
        #expect(sdk.state == .shutDown(.invalidAccessToken))
        let seen = await take(6, from: &stream)
        #expect(seen.suffix(2) == [.vps(.failed(.invalidAccessToken), error: .invalidAccessToken),
                                   .shutDown(.invalidAccessToken)])
        // The delegate ends on the same snapshot as the stream.
        #expect(delegate.states.suffix(2) == seen.suffix(2))
        #expect(delegate.localizationEvents.last == .failed(.invalidAccessToken))
        #expect(sdk.state.lastError?.localizedDescription.contains("token") == true)
        let beforeReset = sdk.state
        await sdk.reset()  // no effect after shutdown (it does not throw, as on the phone SDK)
        #expect(sdk.state == beforeReset)
    }

    @Test("a 401 on the scene fetch ends the session too")
    func unauthorizedOnScene() async throws {
        let backend = ScriptedBackend()
        backend.enqueueScene(.failure(.unauthorized("unknown token")))
        let (sdk, host) = try Fixtures.make(backend)
        try await host.loadView()
        #expect(sdk.isShutDown)
        #expect(sdk.state.lastError == .invalidAccessToken)
        #expect(backend.requestCount == 0)
    }
}
