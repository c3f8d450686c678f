import GraffityARCloud
import Testing

@MainActor
@Suite("Delegate")
struct DelegateTests {
    @Test("the delegate is held weakly")
    func weak() throws {
        let sdk = GraffityARCloud(configuration: Fixtures.configuration(), backend: ScriptedBackend())
        var delegate: RecordingDelegate? = RecordingDelegate()
        sdk.delegate = delegate
        #expect(sdk.delegate === delegate)
        delegate = nil
        #expect(sdk.delegate == nil)
    }

    @Test("distinct state changes and localization events reach the delegate")
    func receivesStatesAndEvents() async throws {
        let backend = ScriptedBackend([.notLocalized("too few inliers"), .fix(10)])
        let (sdk, host) = try Fixtures.make(backend)
        let delegate = RecordingDelegate()
        sdk.delegate = delegate
        try await host.loadView()
        try await host.advance(by: .seconds(1.5))

        #expect(delegate.states.map(\.vpsState) == [.initializing, .localizing, .localized(sectionId: "hall")])
        #expect(delegate.localizationEvents == [
            .notLocalized(frameId: "f0", reason: "too few inliers"),
            .localized(frameId: "f10", sectionId: "hall", pose: Fixtures.groundTruth(10), inliers: 120),
        ])
    }

    @Test("shutdown's final snapshot reaches the delegate too; then it is removed and no longer called")
    func tornDownByShutdown() async throws {
        let (sdk, host) = try Fixtures.make()
        let delegate = RecordingDelegate()
        sdk.delegate = delegate
        try await host.loadView()
        let before = delegate.states
        await sdk.shutdown()
        #expect(sdk.delegate == nil)
        #expect(delegate.states == before + [.shutDown()])  // the same last snapshot as every stream
        await sdk.shutdown()
        #expect(delegate.states == before + [.shutDown()])

        sdk.delegate = delegate
        #expect(sdk.delegate == nil)
    }
}
