import GraffityARCloud
import Testing

@MainActor
final class Received {
    var states: [GraffityARCloud.State] = []
}

@MainActor
@Suite("Closure subscriptions")
struct StateSubscriptionTests {
    @Test("current state first, then distinct changes")
    func currentThenChanges() async throws {
        let backend = ScriptedBackend([.fix(0), .fix(10)])
        let (sdk, host) = try Fixtures.make(backend)
        let received = Received()
        let subscription = sdk.subscribe { received.states.append($0) }
        #expect(received.states == [.initial])

        try await host.loadView()
        try await host.advance(by: .seconds(1))
        #expect(backend.requestCount == 2)
        #expect(received.states.map(\.vpsState) == [.notStarted, .initializing, .localizing, .localized(sectionId: "hall")])
        subscription.cancel()
    }

    /// Two ways a subscription ends: `cancel()`, or the last reference to it going away.
    enum Ending: String, CaseIterable, CustomTestStringConvertible {
        case cancel = "cancel() stops delivery"
        case release = "releasing the subscription cancels it"
        var testDescription: String { rawValue }
    }

    @Test("an ended subscription gets nothing more", arguments: Ending.allCases)
    func endingStopsDelivery(_ ending: Ending) async throws {
        let (sdk, host) = try Fixtures.make()
        let received = Received()
        var subscription: StateSubscription? = sdk.subscribe { received.states.append($0) }
        switch ending {
        case .cancel:
            subscription?.cancel()
            #expect(subscription?.isCancelled == true)
        case .release:
            #expect(sdk.stateObserverCount == 1)
            _ = subscription
            subscription = nil
        }
        #expect(sdk.stateObserverCount == 0)

        try await host.loadView()
        try await host.advance(by: .zero)
        #expect(received.states == [.initial])
    }

    @Test("a subscription gets shutdown's final snapshot, then nothing more")
    func shutdownEndsBridging() async throws {
        let (sdk, host) = try Fixtures.make()
        let received = Received()
        let subscription = sdk.subscribe { received.states.append($0) }
        try await host.loadView()
        try await host.advance(by: .zero)
        await sdk.shutdown()
        #expect(received.states.last == .shutDown())
        #expect(sdk.stateObserverCount == 0)

        let late = Received()
        let after = sdk.subscribe { late.states.append($0) }
        #expect(late.states == [.shutDown()])
        #expect(after.isCancelled)
        subscription.cancel()
    }
}
