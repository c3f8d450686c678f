import GraffityARCloud
import Testing

@MainActor
@Suite("State streams")
struct StateStreamTests {
    @Test("a new stream yields the current snapshot first")
    func currentFirst() async throws {
        let (sdk, host) = try await Fixtures.localizedAtFirstFrame()
        #expect(sdk.state.vpsState == .localized(sectionId: "hall"))

        var late = sdk.stateStream().makeAsyncIterator()
        #expect(await late.next() == sdk.state)
    }

    @Test("each call is an independent stream with its own continuation")
    func independent() async throws {
        let (sdk, host) = try Fixtures.make()
        let a = sdk.stateStream()
        var b = sdk.stateStream().makeAsyncIterator()
        #expect(sdk.stateObserverCount == 2)

        // Cancelling one stream's consumer ends only that one.
        let consumer = Task { for await _ in a {} }
        consumer.cancel()
        await consumer.value
        #expect(sdk.stateObserverCount == 1)

        try await host.loadView()
        try await host.advance(by: .zero)
        let seen = await take(4, from: &b)
        #expect(seen.map(\.vpsState) == [.notStarted, .initializing, .localizing, .localized(sectionId: "hall")])
    }

    @Test("duplicate snapshots are filtered")
    func duplicatesFiltered() async throws {
        // Two fixes in the same section publish one snapshot; a new section publishes again.
        let backend = ScriptedBackend([.fix(0), .notLocalized("blur"), .fix(20),
                                       .fix(30, section: "garden")])
        let (sdk, host) = try Fixtures.make(backend, frames: 40)
        var stream = sdk.stateStream().makeAsyncIterator()
        try await host.loadView()
        try await host.runToEnd()
        #expect(backend.requestCount == 4)

        let seen = await take(5, from: &stream)
        #expect(seen.map(\.vpsState) == [.notStarted, .initializing, .localizing,
                                        .localized(sectionId: "hall"), .localized(sectionId: "garden")])
        #expect(zip(seen, seen.dropFirst()).allSatisfy { $0 != $1 })
    }

    @Test("a stream's continuation is removed when the stream terminates")
    func removedOnTermination() async throws {
        let sdk = GraffityARCloud(configuration: Fixtures.configuration(), backend: ScriptedBackend())
        let consumer = Task { @MainActor in
            var count = 0
            for await _ in sdk.stateStream() { count += 1 }
            return count
        }
        // A second stream that stays: only the cancelled one must go.
        var probe = sdk.stateStream().makeAsyncIterator()
        _ = await probe.next()
        consumer.cancel()
        _ = await consumer.value
        #expect(sdk.stateObserverCount == 1)  // only the probe is left
    }

    @Test("a stream made before shutdown gets the shutdown snapshot and is not finished")
    func streamBeforeShutdown() async throws {
        let (sdk, host) = try await Fixtures.localizedAtFirstFrame()
        var stream = sdk.stateStream().makeAsyncIterator()
        #expect(await stream.next()?.vpsState == .localized(sectionId: "hall"))

        await sdk.shutdown()
        #expect(await stream.next() == .shutDown())
        // Not finished: its continuation is still registered (termination would remove it).
        #expect(sdk.stateObserverCount == 1)
    }

    @Test("a stream made after shutdown yields the shutdown snapshot")
    func streamAfterShutdown() async throws {
        let (sdk, host) = try await Fixtures.localizedAtFirstFrame()
        await sdk.shutdown()

        var stream = sdk.stateStream().makeAsyncIterator()
        #expect(await stream.next() == .shutDown())
        #expect(sdk.stateObserverCount == 1)
    }
}
