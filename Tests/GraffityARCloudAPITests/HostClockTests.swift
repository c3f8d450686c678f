// The replay clock as an app sees it, through the public API only: the host factory chooses
// it (`makeViewController` real time, `makeVirtualReplay` stepped), and `reset()` routes to
// the host made last by either, as the seed says of `makeViewController()`.
import Foundation
import GraffityARCloud
import Testing

/// A backend that places every frame at the origin in section "hall".
private struct FixEveryFrame: VPSBackend {
    func localize(_ request: LocalizationRequest) async throws -> LocalizationResponse {
        .localized(LocalizationFix(pose: Pose(rotation: Quaternion(x: 0, y: 0, z: 0, w: 1), translation: .zero),
                                   sectionId: "hall", inliers: 100))
    }
    func scene(mapId: String) async throws -> SceneContent { SceneContent() }
}

@MainActor
private func makeSDK(_ configuration: GraffityARCloud.Configuration = .init(mapId: "m", serverURL: URL(string: "http://127.0.0.1:9")))
    -> GraffityARCloud {
    GraffityARCloud(configuration: configuration, backend: FixEveryFrame())
}

@MainActor
struct HostClockTests {
    @Test("reset() reaches the stepped host made last, and the replay goes on from where it was")
    func resetReachesTheLatestSteppedHost() async throws {
        let sdk = makeSDK()
        let earlier = try sdk.makeViewController(session: placeholderSession(frames: 1), images: PlaceholderImages())
        try await earlier.loadView()
        let latest = try sdk.makeVirtualReplay(session: placeholderSession(frames: 20), images: PlaceholderImages())
        #expect(earlier.isRemoved, "making a host stops the one before it")

        try await latest.loadView()
        try await latest.advance(by: .seconds(0.5))
        #expect(sdk.state.vpsState == .localized(sectionId: "hall") && latest.cameraPose != nil)
        #expect(latest.vpsRequestCount == 1, "one request per second of replay time")

        var events = sdk.eventStream().makeAsyncIterator()
        await sdk.reset()
        #expect(await events.next() == .localization(.reset))
        #expect(sdk.state.vpsState == .localizing && latest.cameraPose == nil)
        #expect(latest.replayTime == .seconds(0.5), "reset pauses and resumes; it does not rewind")
        // The fix is gone, so the next frame (0.6 s) is sent at once and localizes again.
        try await latest.advance(by: .seconds(0.1))
        #expect(latest.vpsRequestCount == 2 && sdk.state.vpsState == .localized(sectionId: "hall"))
    }

    // The limit only stops a hang: with two cores under ASan the cooperative pool is shared
    // with CPU-bound tests for minutes, so a tight limit fails a test that is only waiting.
    @Test("reset() reaches the host makeViewController made last, not the stepped one before it",
          .timeLimit(.minutes(15)))
    func resetReachesTheLatestRealTimeHost() async throws {
        let sdk = makeSDK()
        let earlier = try sdk.makeVirtualReplay(session: placeholderSession(frames: 20), images: PlaceholderImages())
        try await earlier.loadView()
        try await earlier.advance(by: .seconds(0.5))
        let earlierPose = try #require(earlier.cameraPose)

        // One frame: after its answer nothing more happens, so the states are deterministic.
        let latest = try sdk.makeViewController(session: placeholderSession(frames: 1), images: PlaceholderImages())
        #expect(earlier.isRemoved)
        let states = sdk.stateStream()
        try await latest.loadView()
        try await latest.runToEnd()
        for await state in states where state.vpsState.isLocalized { break }
        #expect(latest.cameraPose != nil && latest.vpsRequestCount == 1)

        var events = sdk.eventStream().makeAsyncIterator()
        await sdk.reset()
        #expect(await events.next() == .localization(.reset))
        #expect(sdk.state.vpsState == .localizing && latest.cameraPose == nil)
        #expect(earlier.cameraPose == earlierPose, "the host made before is not reset")
    }

    @Test("the factory chooses the clock; a configuration stating the deprecated clock cannot contradict it")
    func theFactoryChoosesTheClock() throws {
        let sdk = makeSDK()
        #expect(try sdk.makeViewController(session: placeholderSession(frames: 2), images: PlaceholderImages()).clock == .realtime)
        #expect(try sdk.makeVirtualReplay(session: placeholderSession(frames: 2), images: PlaceholderImages()).clock == .virtual)

        // Configurations written for 0.1 state the clock: `makeViewController` on `.virtual`
        // makes the stepped host 0.1 made; `makeVirtualReplay` on `.realtime` (a factory 0.1
        // did not have) says which to call instead of making a host of the wrong kind.
        func refused(_ make: () throws -> ARSessionHost, naming factory: String) -> Bool {
            do { _ = try make(); return false } catch {
                guard case .invalidUsage(let message)? = error as? ARCloudError else { return false }
                return message.contains(factory)
            }
        }
        let virtual = makeSDK(.init(mapId: "m", serverURL: URL(string: "http://127.0.0.1:9"), clock: .virtual))
        #expect(try virtual.makeVirtualReplay(session: placeholderSession(frames: 2), images: PlaceholderImages()).clock == .virtual)
        let zeroOne = try virtual.makeViewController(session: placeholderSession(frames: 2), images: PlaceholderImages())
        #expect(zeroOne.clock == .virtual && zeroOne is VirtualReplayHost)
        let realtime = makeSDK(.init(mapId: "m", serverURL: URL(string: "http://127.0.0.1:9"), clock: .realtime))
        #expect(try realtime.makeViewController(session: placeholderSession(frames: 2), images: PlaceholderImages()).clock == .realtime)
        #expect(refused({ try realtime.makeVirtualReplay(session: placeholderSession(frames: 2), images: PlaceholderImages()) },
                        naming: "makeViewController"))
    }
}
