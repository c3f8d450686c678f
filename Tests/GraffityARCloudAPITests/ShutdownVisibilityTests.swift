// Shutdown and terminal errors as every kind of observer sees them, through the public API
// only: the delegate, `stateStream()` and `subscribe(_:)` must all end on the same final
// snapshot, and that snapshot says the session is shut down.
import Foundation
import GraffityARCloud
import Testing

@MainActor
private final class RecordingDelegate: GraffityARCloudDelegate {
    var states: [GraffityARCloud.State] = []
    func graffityARCloud(_ sdk: GraffityARCloud, didChangeState state: GraffityARCloud.State) { states.append(state) }
}

/// Observes a session three ways at once, from before the host is made.
@MainActor
private final class Observers {
    let delegate = RecordingDelegate()
    var subscribed: [GraffityARCloud.State] = []
    var subscription: StateSubscription?
    let streamed: Task<[GraffityARCloud.State], Never>

    init(_ sdk: GraffityARCloud) {
        sdk.delegate = delegate
        // The stream is read until the snapshot says shutdown: no polling of sdk.isShutDown,
        // no cancellation needed (shutdown does not finish streams).
        let stream = sdk.stateStream()
        streamed = Task { @MainActor in
            var seen: [GraffityARCloud.State] = []
            for await state in stream {
                seen.append(state)
                if state.isShutDown { break }
            }
            return seen
        }
        subscription = sdk.subscribe { [unowned self] in self.subscribed.append($0) }
    }
}

/// A backend that rejects the access token, as the HTTP service answers 401.
private struct RejectingBackend: VPSBackend {
    func localize(_ request: LocalizationRequest) async throws -> LocalizationResponse {
        throw VPSBackendError.unauthorized("token revoked")
    }
    func scene(mapId: String) async throws -> SceneContent { SceneContent() }
}


@MainActor
struct ShutdownVisibilityTests {
    @Test("after shutdown() the delegate, a stream and a subscription all end on one snapshot with isShutDown")
    func everyObserverEndsOnTheShutdownSnapshot() async throws {
        let walk = packageRoot.appendingPathComponent("Datasets/gallery-query-walk")
        let sdk = GraffityARCloud(configuration: .init(
            mapId: "gallery", embeddedMapURL: packageRoot.appendingPathComponent("Maps/gallery.vpsmap")))
        let observers = Observers(sdk)
        let host = try sdk.makeVirtualReplay(session: try RecordedSession.load(from: walk), directory: walk)
        try await host.loadView()
        try await host.advance(by: .seconds(2))
        #expect(sdk.state.vpsState.isLocalized, "the embedded VPS localized the shipped walk: \(sdk.state)")

        await sdk.shutdown()
        let streamed = await observers.streamed.value
        let final = GraffityARCloud.State(isShutDown: true)
        #expect(sdk.state == final)
        #expect(streamed.last == final)
        #expect(observers.subscribed.last == final)
        #expect(observers.delegate.states.last == final)
        #expect(observers.delegate.states == Array(streamed.dropFirst()),
                "the delegate saw every change the stream saw (the stream also starts with the initial snapshot)")
        #expect(observers.subscribed == streamed)
        // The snapshot after removing a view is not the shutdown one: an observer can tell them apart.
        #expect(GraffityARCloud.State() != final)
    }

    @Test("a rejected token: every observer sees .failed(.invalidAccessToken), then the same shutdown snapshot keeping lastError")
    func rejectedTokenEndsEveryObserverOnTheSameSnapshot() async throws {
        let sdk = GraffityARCloud(configuration: .init(mapId: "m", serverURL: URL(string: "http://127.0.0.1:9")),
                                  backend: RejectingBackend())
        let observers = Observers(sdk)
        let host = try sdk.makeVirtualReplay(session: placeholderSession(frames: 5), images: PlaceholderImages())
        try await host.loadView()
        try await host.advance(by: .seconds(1))

        let streamed = await observers.streamed.value
        let final = GraffityARCloud.State(lastError: .invalidAccessToken, isShutDown: true)
        #expect(sdk.isShutDown && sdk.state == final)
        for seen in [streamed, observers.subscribed, observers.delegate.states] {
            #expect(seen.last == final, "\(seen)")
            #expect(seen.dropLast().last?.vpsState == .failed(.invalidAccessToken), "\(seen)")
        }
    }

    @Test("a configuration naming neither a server nor a map file is refused when the host is made, with the reason")
    func configurationWithoutAVPSIsRefusedEarly() {
        let sdk = GraffityARCloud(configuration: .init(mapId: "gallery"))
        #expect {
            _ = try sdk.makeViewController(session: placeholderSession(frames: 2), images: PlaceholderImages())
        } throws: { error in
            (error as? ARCloudError).map { "\($0.localizedDescription)".contains("embeddedMapURL") } ?? false
        }
    }

    @Test("reset() is awaited without try, and after shutdown it changes nothing")
    func resetAfterShutdownIsANoOp() async throws {
        let sdk = GraffityARCloud(configuration: .init(mapId: "m", serverURL: URL(string: "http://127.0.0.1:9")),
                                  backend: RejectingBackend())
        await sdk.shutdown()
        let before = sdk.state
        await sdk.reset()
        #expect(sdk.state == before && before.isShutDown)
    }

    @Test("a snapshot describes itself without the module-qualified type name")
    func stateDescriptionIsReadable() {
        let state = GraffityARCloud.State(isSceneReady: true, vpsState: .localized(sectionId: "hall"))
        #expect("\(state)" == #"State(sceneReady, localized(sectionId: "hall"))"#)
    }
}
