import Geometry
import GraffityARCloud
import Testing

@MainActor
@Suite("Navigation")
struct NavigationTests {
    /// A ground-truth SDK whose host has loaded and localized its first frame (at n0), then
    /// started navigating to `destination`.
    static func navigatingFromTheFirstFix(to destination: String) async throws
        -> (GraffityARCloud, VirtualReplayHost, RecordingDelegate) {
        let (sdk, host, _, delegate) = try Fixtures.makeGroundTruth()
        try await host.loadView()
        try await host.advance(by: .zero)
        try sdk.startNavigation(to: destination)
        return (sdk, host, delegate)
    }

    @Test("navigation started before the first fix waits, plans at the fix, passes waypoints and arrives")
    func navigatesToANode() async throws {
        let (sdk, host, _, delegate) = try Fixtures.makeGroundTruth(refuse: ["f0", "f5"])
        try await host.loadView()
        try sdk.startNavigation(to: "n2")
        #expect(sdk.state.navigation == NavigationState(destination: "n2"))
        #expect(sdk.state.navigation?.isWaitingForLocalization == true)

        // f0 and f5 are refused; the first fix is f10 at x = 1.0 m.
        try await host.advance(by: .seconds(0.9))
        #expect(delegate.navigationEvents.isEmpty)
        #expect(sdk.state.navigation?.remainingDistance == nil)
        try await host.runToEnd()

        // Planned from n1 (nearest to x = 1.0), which the camera is already within 1 m of.
        #expect(delegate.navigationEvents == [.started(destination: "n2", route: ["n1", "n2"]),
                                              .waypointReached(nodeId: "n1"), .arrived(destination: "n2")])
        #expect(sdk.state.navigation == NavigationState(destination: "n2", remainingWaypoints: [], remainingDistance: 0,
                                                        hint: .arrived, hasArrived: true))
        // Arrival within 1 m of x = 3: at f20 (x = 2.0).
        let distances = delegate.states.compactMap { $0.navigation?.remainingDistance }
        #expect(distances.first == 2)
        #expect(zip(distances, distances.dropFirst()).allSatisfy { $1 < $0 })
        let arrivedState = try #require(delegate.states.firstIndex { $0.navigation?.hasArrived == true })
        #expect(try #require(delegate.states[arrivedState - 1].navigation?.remainingDistance) <= 1.1)
    }

    @Test("a route from the start passes every node in order")
    func passesEveryWaypoint() async throws {
        let (sdk, host, delegate) = try await Self.navigatingFromTheFirstFix(to: "n2")
        #expect(delegate.navigationEvents == [.started(destination: "n2", route: ["n0", "n1", "n2"]),
                                              .waypointReached(nodeId: "n0")])
        // The camera looks along +z while the route runs along +x: with this fixture's
        // (upside-down) camera, +x is on the walker's left... the hint says which way.
        let hint = try #require(sdk.state.navigation?.hint)
        let pose = try #require(host.cameraPose)
        let forward = pose.rotation.rotate(SIMD3(0, 0, 1))
        let way = SIMD3(1.5, 0, 0)
        let leftTurn = cross(SIMD3(forward.x, 0, forward.z), way).y > 0
        #expect(hint == (leftTurn ? .turnLeft : .turnRight))
        #expect(sdk.state.navigation?.remainingWaypoints == ["n1", "n2"])
        #expect(sdk.state.navigation?.remainingDistance == 3)
        try await host.runToEnd()
        #expect(delegate.navigationEvents.suffix(2) == [.waypointReached(nodeId: "n1"), .arrived(destination: "n2")])
    }

    @Test("an unknown destination or one no edge reaches fails with a reason")
    func noRoute() async throws {
        let (sdk, host, delegate) = try await Self.navigatingFromTheFirstFix(to: "atlantis")
        #expect(delegate.navigationEvents == [.failed(destination: "atlantis",
                                                      reason: "the navigation graph has no node 'atlantis'")])
        #expect(sdk.state.navigation == nil)
        try sdk.startNavigation(to: "island")
        #expect(delegate.navigationEvents.last == .failed(destination: "island",
                                                          reason: "no route from 'n0' to 'island' in the navigation graph"))
        #expect(sdk.state.navigation == nil)
    }

    @Test("a destination unreachable from where the first fix places the camera fails at that fix")
    func noRouteAtFirstFix() async throws {
        let (sdk, host, _, delegate) = try Fixtures.makeGroundTruth(refuse: ["f0"])
        try await host.loadView()
        try await host.advance(by: .zero)
        try sdk.startNavigation(to: "island")
        #expect(sdk.state.navigation?.isWaitingForLocalization == true)
        try await host.advance(by: .seconds(0.5))
        #expect(delegate.navigationEvents == [.failed(destination: "island",
                                                      reason: "no route from 'n0' to 'island' in the navigation graph")])
        #expect(sdk.state.navigation == nil)
    }

    @Test("navigation waiting for a first fix that never comes gives up after the timeout")
    func neverLocalized() async throws {
        let session = Fixtures.session()
        let (sdk, host, _, delegate) = try Fixtures.makeGroundTruth(
            session: session, refuse: Set(session.frames.map(\.id)),
            navigation: NavigationOptions(lostLocalizationTimeout: .seconds(2)))
        try await host.loadView()
        try sdk.startNavigation(to: "n2")
        try await host.advance(by: .seconds(2))
        #expect(sdk.state.navigation?.destination == "n2")
        try await host.advance(by: .seconds(0.1))
        #expect(delegate.navigationEvents == [.failed(destination: "n2", reason: "localization lost for more than 2 s")])
    }

    @Test("navigation fails when no fix is accepted for longer than the timeout")
    func lostLocalization() async throws {
        let (sdk, host, backend, delegate) = try Fixtures.makeGroundTruth(
            navigation: NavigationOptions(lostLocalizationTimeout: .seconds(1.2)))
        try await host.loadView()
        try await host.advance(by: .zero)
        try sdk.startNavigation(to: "side")
        backend.refuseEverything()
        // Last fix at 0 s; the frame at 1.3 s is the first more than 1.2 s later.
        try await host.advance(by: .seconds(1.2))
        #expect(sdk.state.navigation != nil)
        try await host.advance(by: .seconds(0.1))
        #expect(delegate.navigationEvents.last == .failed(destination: "side",
                                                          reason: "localization lost for more than 1.2 s"))
        #expect(sdk.state.navigation == nil)
        #expect(sdk.state.vpsState == .localized(sectionId: "hall"), "VPS itself carries on; only guidance gave up")
    }

    @Test("fixes keep guidance alive; reset restarts the lost-localization clock")
    func fixesKeepItAlive() async throws {
        let (sdk, host, _, delegate) = try Fixtures.makeGroundTruth(
            navigation: NavigationOptions(arrivalRadius: 0.1, lostLocalizationTimeout: .seconds(0.6)))
        try await host.loadView()
        try await host.advance(by: .zero)
        try sdk.startNavigation(to: "side")
        try await host.advance(by: .seconds(1.0))
        await sdk.reset()
        // After the reset the next frame localizes again (requests are due at once).
        try await host.advance(by: .seconds(1.0))
        #expect(!delegate.navigationEvents.contains { if case .failed = $0 { true } else { false } })
        #expect(sdk.state.navigation?.destination == "side")
    }

    @Test("stopping ends guidance; starting anew stops the old one first")
    func stopAndRestart() async throws {
        let (sdk, host, delegate) = try await Self.navigatingFromTheFirstFix(to: "side")
        try sdk.startNavigation(to: "n2")
        #expect(delegate.navigationEvents == [
            .started(destination: "side", route: ["n0", "n1", "side"]), .waypointReached(nodeId: "n0"),
            .stopped(destination: "side"),
            .started(destination: "n2", route: ["n0", "n1", "n2"]), .waypointReached(nodeId: "n0"),
        ])
        try sdk.stopNavigation()
        #expect(delegate.navigationEvents.last == .stopped(destination: "n2"))
        #expect(sdk.state.navigation == nil)
        try sdk.stopNavigation()
        #expect(delegate.navigationEvents.count == 6, "stopping without guidance does nothing")
    }

    @Test("navigation needs a loaded host and a live session")
    func usageRules() async throws {
        let (sdk, host, _, _) = try Fixtures.makeGroundTruth()
        #expect(throws: ARCloudError.hostNotLoaded) { try sdk.startNavigation(to: "n2") }
        try await host.loadView()
        await sdk.shutdown()
        #expect(throws: ARCloudError.sessionShutDown) { try sdk.startNavigation(to: "n2") }
        #expect(throws: ARCloudError.sessionShutDown) { try sdk.stopNavigation() }
    }
}
