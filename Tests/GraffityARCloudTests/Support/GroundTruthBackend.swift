import Foundation
import Geometry
import GraffityARCloud
import Support
import VPSModel

/// A test double of `VPSBackend` that localizes every frame at its ground-truth pose (or
/// refuses frames listed in `refuse`), with a fixed scene: for testing what the session
/// does with poses (navigation, taps), not how poses are found.
final class GroundTruthBackend: VPSBackend {
    let scene: SceneContent
    private let poses: [String: Pose]
    private let refused: Locked<Set<String>>

    init(session: RecordedSession, scene: SceneContent, refuse: Set<String> = []) {
        self.scene = scene
        poses = Dictionary(uniqueKeysWithValues: session.frames.compactMap { f in f.pose.map { (f.id, $0) } })
        refused = Locked(refuse)
    }

    /// From now on, every frame is refused (localization is lost).
    func refuseEverything() { refused.withLock { $0 = Set(poses.keys) } }

    func localize(_ request: LocalizationRequest) async throws -> LocalizationResponse {
        guard let id = request.frameId, let pose = poses[id], !refused.withLock({ $0.contains(id) }) else {
            return .notLocalized(reason: "refused by the test")
        }
        return .localized(LocalizationFix(pose: pose, sectionId: "hall", inliers: 200, reprojectionError: 0.5))
    }

    func scene(mapId: String) async throws -> SceneContent { scene }
}

extension Fixtures {
    /// A corridor along +x (the fixture camera walks it at 1 m/s): nodes every 1.5 m, a
    /// side room off the middle node, and an island no edge reaches.
    static let corridor: NavigationGraph = {
        func node(_ id: String, _ x: Double, _ z: Double) -> NavigationGraph.Node {
            .init(id: id, name: id, position: SIMD3(x, 0, z), sectionId: "hall")
        }
        let nodes = [node("n0", 0, 0), node("n1", 1.5, 0), node("n2", 3, 0), node("side", 1.5, 5),
                     node("island", 20, 20)]
        let at = Dictionary(uniqueKeysWithValues: nodes.map { ($0.id, $0.position) })
        let edges = [("n0", "n1"), ("n1", "n2"), ("n1", "side")].map { a, b in
            NavigationGraph.Edge(from: a, to: b, weight: length(at[a]! - at[b]!))
        }
        return NavigationGraph(nodes: nodes, edges: edges)
    }()

    /// An object facing the fixture camera (which looks along +z): its front face, normal
    /// −z, centred at `centre`.
    static func facingCamera(_ id: String, _ kind: SceneObject.Kind, at centre: SIMD3<Double>,
                             size: SIMD3<Double>, payload: [String: String] = [:]) -> SceneObject {
        SceneObject(id: id, kind: kind, sectionId: "hall",
                    pose: Pose(rotation: Quaternion(axis: SIMD3(0, 1, 0), angle: .pi), translation: centre),
                    extent: size, payload: payload)
    }

    /// A coin hanging 3 m ahead of the start, a big mural 1 m behind it, a poster link.
    static let gallery = SceneContent(
        sections: [MapSection(id: "hall", name: "Hall")],
        objects: [
            facingCamera("coin", .collectible, at: SIMD3(0.5, 1.5, 3), size: SIMD3(0.4, 0.4, 0.1),
                         payload: ["title": "Gold coin", "points": "10"]),
            facingCamera("mural", .graffiti, at: SIMD3(0.5, 1.5, 4), size: SIMD3(3, 2, 0)),
            facingCamera("poster", .link, at: SIMD3(-1.2, 1.2, 3), size: SIMD3(0.6, 0.8, 0),
                         payload: ["url": "https://example.com/poster"]),
        ],
        navigation: corridor)

    /// Where `point` appears in fixture frame `frame` (ground truth pose).
    static func pixel(of point: SIMD3<Double>, inFrame frame: Int) -> SIMD2<Double> {
        camera.project(groundTruth(frame).inverse.apply(point))!
    }

    /// An SDK whose backend localizes every frame at ground truth, over `gallery`, with a
    /// virtual-clock host for `session`, not yet loaded.
    @MainActor
    static func makeGroundTruth(session: RecordedSession = session(), refuse: Set<String> = [],
                                navigation: NavigationOptions = NavigationOptions(),
                                interval: Duration = .seconds(0.5))
        throws -> (GraffityARCloud, VirtualReplayHost, GroundTruthBackend, RecordingDelegate) {
        let backend = GroundTruthBackend(session: session, scene: gallery, refuse: refuse)
        var configuration = configuration(interval: interval)
        configuration.navigation = navigation
        let sdk = GraffityARCloud(configuration: configuration, backend: backend)
        let host = try sdk.makeVirtualReplay(session: session, images: StubImages())
        let delegate = RecordingDelegate()
        sdk.delegate = delegate
        return (sdk, host, backend, delegate)
    }
}
