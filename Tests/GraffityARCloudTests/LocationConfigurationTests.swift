import Geodesy
import GraffityARCloud
import Testing
import VPSModel

/// The device's location reaches every localization request, as a phone SDK sends its last
/// GPS fix; a replayed frame's own reading, when it has one, goes instead.
@MainActor
@Suite("Location")
struct LocationConfigurationTests {
    static let fix = GPSReading(position: GeodeticPosition(latitude: 52.37, longitude: 4.89, height: 2), accuracy: 12)

    @Test("the configured location goes with each request, a frame's own reading before it")
    func locationReachesTheBackend() async throws {
        let backend = ScriptedBackend([.fix(0)])
        var configuration = Fixtures.configuration()
        configuration.location = Self.fix
        var session = Fixtures.session(frames: 30)
        let own = GPSReading(position: GeodeticPosition(latitude: 52.371, longitude: 4.891, height: 2), accuracy: 5)
        session.frames[0].gps = own
        let sdk = GraffityARCloud(configuration: configuration, backend: backend)
        let host = try sdk.makeVirtualReplay(session: session, images: StubImages())
        try await host.loadView()
        try await host.advance(by: .zero)
        await backend.waitForRequests(1)
        try await host.advance(by: .seconds(1.05))
        await backend.waitForRequests(2)
        let sent = backend.requests.map(\.location)
        #expect(sent.prefix(2) == [own, Self.fix])
    }
}
