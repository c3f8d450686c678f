import Foundation
import Geometry
import GraffityARCloud
import Testing
import VPSModel

@MainActor
@Suite("Scripted sessions")
struct ScriptTests {
    static let coin = SIMD3(0.5, 1.5, 3.0)
    static let poster = SIMD3(-1.2, 1.2, 3.0)

    /// The fixture session with a script: navigate, tap the poster and the coin where they
    /// are drawn, reset, stop, and shut down after the last frame.
    static func scriptedSession() -> RecordedSession {
        var session = Fixtures.session()
        let p = Fixtures.pixel(of: poster, inFrame: 2)
        let c = Fixtures.pixel(of: coin, inFrame: 3)
        session.script = [
            ScriptAction(time: 0.05, action: .startNavigation(node: "n2")),
            // Between frames 2 and 3: frame 2 is on screen.
            ScriptAction(time: 0.25, action: .tap(x: p.x, y: p.y)),
            // Exactly at frame 3: frame 3 is on screen.
            ScriptAction(time: 0.3, action: .tap(x: c.x, y: c.y)),
            ScriptAction(time: 2.5, action: .stopNavigation),
            ScriptAction(time: 2.6, action: .reset),
            ScriptAction(time: 4.0, action: .shutdown),
        ]
        return session
    }

    @Test("the script runs on the replay clock against the frame on screen, to the end")
    func runsTheScript() async throws {
        let (sdk, host, _, delegate) = try Fixtures.makeGroundTruth(session: Self.scriptedSession())
        try await host.loadView()
        try await host.advance(by: .seconds(0.29))
        #expect(host.scriptActionsRun == 2)
        try await host.runToEnd()
        #expect(host.scriptActionsRun == 6)
        #expect(sdk.isShutDown, "the shutdown at 4 s, after the last frame (2.9 s), ran")

        let taps = delegate.events.compactMap { if case .tap(let t) = $0 { t } else { nil } }
        #expect(taps.map(\.objectId) == ["poster", "coin"])
        // Cast from the frame on screen, each ray meets its object's front face at its centre.
        #expect(length(try #require(taps[0].hitPoint) - Self.poster) < 1e-6)
        #expect(length(try #require(taps[1].hitPoint) - Self.coin) < 1e-6)

        let kinds = delegate.events.filter { if case .localization(.localized) = $0 { false } else { true } }
        #expect(kinds == [
            .navigation(.started(destination: "n2", route: ["n0", "n1", "n2"])),
            .navigation(.waypointReached(nodeId: "n0")),
            .tap(taps[0]), .link(LinkEvent(objectId: "poster", url: "https://example.com/poster")),
            .tap(taps[1]), .collection(CollectionEvent(objectId: "coin", payload: ["title": "Gold coin", "points": "10"])),
            .navigation(.waypointReached(nodeId: "n1")),
            .navigation(.arrived(destination: "n2")),
            .navigation(.stopped(destination: "n2")),
            .localization(.reset),
        ])
        #expect(sdk.state == .shutDown())
    }

    @Test("a virtual-clock run replays identically")
    func deterministic() async throws {
        func run() async throws -> ([ARCloudEvent], [GraffityARCloud.State]) {
            let (_, host, _, delegate) = try Fixtures.makeGroundTruth(session: Self.scriptedSession())
            try await host.loadView()
            try await host.runToEnd()
            return (delegate.events, delegate.states)
        }
        let first = try await run()
        let second = try await run()
        #expect(first.0 == second.0)
        #expect(first.1 == second.1)
        #expect(first.0.count > 10)
    }

    @Test("a real-time replay plays its script too")
    func realtime() async throws {
        var session = Fixtures.session(frames: 5)
        session.script = [ScriptAction(time: 0.05, action: .startNavigation(node: "n1")),
                          ScriptAction(time: 0.45, action: .shutdown)]
        let sdk = GraffityARCloud(configuration: Fixtures.configuration(interval: .seconds(0.1)),
                                  backend: GroundTruthBackend(session: session, scene: Fixtures.gallery))
        let host = try sdk.makeViewController(session: session, images: StubImages())
        let delegate = RecordingDelegate()
        sdk.delegate = delegate
        try await host.loadView()
        try await host.runToEnd()
        #expect(host.scriptActionsRun == 2)
        #expect(sdk.isShutDown)
        #expect(delegate.navigationEvents.first == .started(destination: "n1", route: ["n0", "n1"]))
    }

    @Test("script actions decode from session.json's form")
    func decodes() throws {
        let json = """
            [{"time": 1.5, "action": {"tap": {"x": 320, "y": 240}}},
             {"time": 2, "action": {"startNavigation": {"node": "n2"}}},
             {"time": 3, "action": {"stopNavigation": {}}},
             {"time": 4, "action": {"reset": {}}},
             {"time": 5, "action": {"shutdown": {}}}]
            """
        let actions = try JSONDecoder().decode([ScriptAction].self, from: Data(json.utf8))
        #expect(actions.map(\.action) == [.tap(x: 320, y: 240), .startNavigation(node: "n2"), .stopNavigation,
                                          .reset, .shutdown])
    }
}
