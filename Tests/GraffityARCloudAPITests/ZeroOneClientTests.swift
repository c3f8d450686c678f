import Foundation
import GraffityARCloud
import Testing

/// Client code as it was written against 0.1, unchanged: the configuration states the
/// virtual clock (deprecated since 0.2, a warning here, removed in 0.3.0) and the host comes
/// from `makeViewController`. It must compile and run as it did: the replay moves only when
/// `runToEnd()` moves it, on the shipped walk, and the embedded VPS localizes it. (The
/// build warns of the deprecated `clock:`, as it warns such a client.)
@MainActor
struct ZeroOneClientTests {
    @Test("0.1 code: clock: .virtual and makeViewController step through the shipped walk")
    func zeroOneStyleVirtualReplayStillWorks() async throws {
        let walk = packageRoot.appendingPathComponent("Datasets/gallery-query-walk")
        let configuration = GraffityARCloud.Configuration(
            mapId: "gallery", embeddedMapURL: packageRoot.appendingPathComponent("Maps/gallery.vpsmap"), clock: .virtual)
        let sdk = GraffityARCloud(configuration: configuration)
        var session = try RecordedSession.load(from: walk)
        session.frames = Array(session.frames.prefix(20))
        let host = try sdk.makeViewController(session: session, directory: walk)
        #expect(host.clock == .virtual)
        try await host.loadView()
        try await host.runToEnd()
        #expect(host.isReplayFinished)
        #expect(sdk.state.vpsState.isLocalized, "the embedded VPS localized the walk: \(sdk.state)")
        await sdk.shutdown()
    }
}
