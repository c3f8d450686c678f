import Foundation
import Geometry
import GraffityARCloud
import Testing
import VPSModel
import VPSServer

/// A whole AR session on the shipped data: the recorded query walk replayed against the
/// shipped map with its script, through the embedded VPS and through the HTTP service.
@MainActor
@Suite("Shipped session")
struct ShippedSessionTests {
    struct Run {
        var sdk: GraffityARCloud
        var host: ARSessionHost
        var events: [ARCloudEvent]
        var states: [GraffityARCloud.State]
    }

    /// The request timeout is real time and far above a localization's (0.6 s at most for the
    /// first, which loads the map, on a loaded debug build): a timeout would be retried and
    /// shift the virtual-clock run, so HTTP and embedded runs would differ for no fault.
    static func configuration(server: URL? = nil, token: String? = nil) -> GraffityARCloud.Configuration {
        .init(mapId: ShippedData.mapId, serverURL: server, accessToken: token,
              embeddedMapURL: server == nil ? ShippedData.mapURL : nil, vpsRequestInterval: .seconds(1),
              requestTimeout: .seconds(120), jitterSeed: 1)
    }

    static func run(_ configuration: GraffityARCloud.Configuration) async throws -> Run {
        var session = try ShippedData.querySession()
        session.script = try ShippedData.script()
        let sdk = GraffityARCloud(configuration: configuration)
        let delegate = RecordingDelegate()
        sdk.delegate = delegate
        let host = try sdk.makeVirtualReplay(session: session, directory: ShippedData.queryDirectory)
        try await host.loadView()
        try await host.runToEnd()
        return Run(sdk: sdk, host: host, events: delegate.events, states: delegate.states)
    }

    @Test("the scripted query walk localizes, navigates to a node and arrives, collects a collectible and opens a link")
    func embeddedSession() async throws {
        let plan = try ScriptPlanner(session: ShippedData.querySession(), scene: ShippedData.scene(),
                                     planes: ShippedData.planes()).plan()
        let run = try await Self.run(Self.configuration())
        let final = run.sdk.state
        #expect(final.lastError == nil)
        #expect(final.vpsState.isLocalized)
        #expect(final.navigation?.destination == plan.destination)
        #expect(final.navigation?.hasArrived == true)
        #expect(final.navigation?.hint == .arrived)

        // Most requests localize.
        let answers = run.events.compactMap { e -> Bool? in
            switch e {
            case .localization(.localized): true
            case .localization(.notLocalized): false
            default: nil
            }
        }
        #expect(answers.count == run.host.vpsRequestCount)
        #expect(Double(answers.filter { $0 }.count) >= 0.8 * Double(answers.count))

        // Navigation: started with a route ending at the destination, waypoints passed in
        // route order, arrival, no failure.
        let navigation = run.events.compactMap { if case .navigation(let n) = $0 { n } else { nil } }
        guard case .started(let destination, let route)? = navigation.first else {
            Issue.record("navigation did not start: \(navigation)")
            return
        }
        #expect(destination == plan.destination && route.last == plan.destination)
        let passed = navigation.compactMap { if case .waypointReached(let id) = $0 { id } else { nil } }
        #expect(passed == Array(route.dropLast().suffix(passed.count)), "waypoints in route order")
        #expect(passed.count == route.count - 1)
        #expect(navigation.last == .arrived(destination: plan.destination))

        // Taps where the objects are drawn hit them.
        let taps = run.events.compactMap { if case .tap(let t) = $0 { t } else { nil } }
        #expect(Set(taps.compactMap(\.objectId)) == [plan.collectible.id, plan.link.id])
        #expect(run.events.contains(.collection(CollectionEvent(objectId: plan.collectible.id,
                                                                payload: plan.collectible.payload))))
        #expect(run.events.contains(.link(LinkEvent(objectId: plan.link.id, url: plan.link.payload["url"] ?? "?"))))
        #expect(run.host.collectedObjectIds == [plan.collectible.id])
        #expect(run.host.scene?.objects.contains { $0.id == plan.collectible.id } == false)
    }

    @Test("the same script against the HTTP service gives the same events and states as the embedded VPS")
    func httpMatchesEmbedded() async throws {
        let tokens = try LocalVPSServer.makeTokenStore()
        let token = try tokens.create(name: "simulator").token
        let server = VPSServer(engine: MapDirectoryEngine(directory: ShippedData.mapsDirectory), tokens: tokens,
                               configuration: VPSServerConfiguration(port: 0, connectionTimeoutSeconds: 5))
        try server.start()
        defer { server.stop(gracePeriod: .seconds(1)) }

        let embedded = try await Self.run(Self.configuration())
        let http = try await Self.run(Self.configuration(server: URL(string: server.baseURL)!, token: token))
        #expect(http.sdk.state.lastError == nil)
        // Poses cross the wire as JSON and are renormalised on arrival: they agree to the
        // last few bits, everything else exactly.
        #expect(http.events.count == embedded.events.count)
        #expect(http.events.map(\.rounded) == embedded.events.map(\.rounded))
        #expect(http.states == embedded.states)
        let worst = zip(http.events, embedded.events).map { a, b -> Double in
            if case .localization(.localized(_, _, let p, _)) = a, case .localization(.localized(_, _, let q, _)) = b {
                return p.error(to: q).translation
            }
            return 0
        }.max() ?? 0
        #expect(worst < 1e-9)
        #expect(http.host.vpsRequestCount == embedded.host.vpsRequestCount)
    }

    @Test("the committed script is what the planner makes from the shipped ground truth")
    func committedScriptFits() throws {
        let plan = try ScriptPlanner(session: ShippedData.querySession(), scene: ShippedData.scene(),
                                     planes: ShippedData.planes()).plan()
        let committed = try? ShippedData.script()
        let suggestion = try ScriptAction.jsonText(plan.script)
        #expect(committed == plan.script, "regenerate \(ShippedData.scriptURL.path) with:\n\(suggestion)")
    }
}

extension ARCloudEvent {
    /// The event with poses and points rounded to a nanometre (and quaternions to 1e-9).
    var rounded: ARCloudEvent {
        func r(_ v: Double) -> Double { (v * 1e9).rounded() / 1e9 }
        func r3(_ v: SIMD3<Double>) -> SIMD3<Double> { SIMD3(r(v.x), r(v.y), r(v.z)) }
        switch self {
        case .localization(.localized(let frame, let section, let pose, let inliers)):
            let q = pose.rotation
            let p = Pose(rotation: Quaternion(x: r(q.x), y: r(q.y), z: r(q.z), w: r(q.w)), translation: r3(pose.translation))
            return .localization(.localized(frameId: frame, sectionId: section, pose: p, inliers: inliers))
        case .tap(var t):
            t.hitPoint = t.hitPoint.map(r3)
            return .tap(t)
        default:
            return self
        }
    }
}
