import GraffityARCloud
import Testing

@MainActor
@Suite("Reset")
struct ResetTests {
    @Test("reset before the view loads has no effect")
    func beforeLoad() async throws {
        let backend = ScriptedBackend([.fix(0)])
        let (sdk, host) = try Fixtures.make(backend)
        var events = sdk.eventStream().makeAsyncIterator()
        await sdk.reset()
        #expect(sdk.state == .initial)
        #expect(backend.sceneCalls == 0)
        #expect(backend.requestCount == 0)

        // The host still loads normally afterwards, and the first event is its own.
        try await host.loadView()
        try await host.advance(by: .zero)
        #expect(await events.next() == .localization(.localized(frameId: "f0", sectionId: "hall",
                                                                   pose: Fixtures.groundTruth(0), inliers: 120)))
    }

    @Test("reset after load drops the fix, returns to localizing and localizes again at once")
    func afterLoad() async throws {
        let backend = ScriptedBackend([.fix(0), .fix(3, section: "garden")])
        let (sdk, host) = try Fixtures.make(backend, interval: .seconds(10))
        let configuration = sdk.configuration
        var stream = sdk.stateStream().makeAsyncIterator()
        var events = sdk.eventStream().makeAsyncIterator()
        try await host.loadView()
        try await host.advance(by: .seconds(0.2))
        #expect(host.cameraPose != nil)

        await sdk.reset()
        #expect(sdk.state == .vps(.localizing))
        #expect(host.cameraPose == nil)
        #expect(sdk.configuration == configuration)

        // The interval restarts: the very next frame is sent, though 10 s have not passed.
        try await host.advance(by: .seconds(0.1))
        #expect(backend.requests.map(\.frameId) == ["f0", "f3"])
        #expect(sdk.state == .vps(.localized(sectionId: "garden")))
        #expect(await take(6, from: &stream).map(\.vpsState) == [
            .notStarted, .initializing, .localizing, .localized(sectionId: "hall"),
            .localizing, .localized(sectionId: "garden"),
        ])
        _ = await events.next()
        #expect(await events.next() == .localization(.reset))
    }

    @Test("reset routes to the host made most recently")
    func routesToMostRecentHost() async throws {
        let backend = ScriptedBackend([.fix(0), .fix(0), .fix(4)])
        let (sdk, first) = try Fixtures.make(backend, interval: .seconds(10))
        try await first.loadView()
        try await first.advance(by: .zero)

        let second = try sdk.makeVirtualReplay(session: Fixtures.session(), images: StubImages())
        #expect(first.isRemoved)  // one active host per SDK
        try await second.loadView()
        try await second.advance(by: .seconds(0.3))
        #expect(second.cameraPose != nil)

        await sdk.reset()
        #expect(second.cameraPose == nil)
        try await second.advance(by: .seconds(0.1))
        #expect(backend.requests.map(\.frameId) == ["f0", "f0", "f4"])
        await #expect(throws: ARCloudError.hostRemoved) { try await first.advance(by: .seconds(1)) }
    }

    @Test("reset re-arms VPS after the retry budget was spent")
    func rearmsAfterFailure() async throws {
        let backend = ScriptedBackend([.fail(.connectionFailed("refused")), .fix(2)])
        let (sdk, host) = try Fixtures.make(backend)
        try await host.loadView()
        try await host.advance(by: .seconds(2))
        guard case .failed(.backendUnavailable) = sdk.state.vpsState else {
            Issue.record("expected a failed VPS, got \(sdk.state)")
            return
        }
        #expect(backend.requestCount == 1)  // a failed VPS sends no more requests

        await sdk.reset()
        #expect(sdk.state == .vps(.localizing))
        try await host.advance(by: .seconds(0.1))
        #expect(sdk.state == .vps(.localized(sectionId: "hall")))
    }

    @Test("reset while a request is in flight abandons it; its late answer is ignored")
    func resetDuringRequest() async throws {
        let backend = ScriptedBackend([.hold, .fix(1, section: "garden")])
        let (sdk, host) = try Fixtures.make(backend)
        try await host.loadView()
        let replay = Task { try await host.advance(by: .seconds(0.1)) }
        await backend.waitForRequests(1)

        await sdk.reset()
        #expect(backend.cancellations == 1)
        try await replay.value
        #expect(sdk.state == .vps(.localized(sectionId: "garden")))

        backend.release(.success(Fixtures.fix(0, section: "hall")))
        await backend.waitForReturns(2)
        await settleMainActor()
        #expect(sdk.state == .vps(.localized(sectionId: "garden")))
    }
}

@MainActor
@Suite("Reset in real time")
struct RealtimeResetTests {
    @Test("reset pauses a real-time replay, drops the request in flight, and the replay resumes")
    func pausesAndResumes() async throws {
        let backend = ScriptedBackend([.hold, .fix(1)])
        let (sdk, host) = try Fixtures.makeRealtime(backend, interval: .seconds(10), frames: 10)
        try await host.loadView()
        await backend.waitForRequests(1)

        await sdk.reset()
        #expect(backend.cancellations == 1)
        try await host.runToEnd()
        #expect(host.isReplayFinished)
        // The fix is requested again on the first frame after the reset (which frame that
        // is depends on real time; that there is one does not).
        #expect(backend.requestCount == 2)
        #expect(backend.requests.first?.frameId == "f0")
        #expect(sdk.state == .vps(.localized(sectionId: "hall")))
        backend.release(.success(Fixtures.fix(0, section: "stale")))
    }
}
