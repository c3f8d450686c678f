import Foundation
import GraffityARCloud
import Testing
import VPS

/// The default (no server URL) configuration: the embedded VPS reading a real map file.
@MainActor
@Suite("Embedded backend")
struct EmbeddedBackendTests {
    let mapURL: URL
    let scene = SceneContent(sections: [MapSection(id: "hall", name: "Hall")],
                             navigation: NavigationGraph(nodes: [.init(id: "door", name: "Door", position: SIMD3(0, 0, 0),
                                                                        sectionId: "hall")]))

    init() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sdk-maps-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        mapURL = directory.appendingPathComponent("gallery.vpsmap")
        let map = try VPSMap(metadata: MapMetadata(name: "gallery", created: Date(timeIntervalSince1970: 0)),
                             scene: scene, keyframes: [], points: MapPoints(), observations: [], vocabulary: nil)
        try map.write(to: mapURL.path)
    }

    @Test("without a server URL the session loads the scene from the map file")
    func loadsSceneFromMapFile() async throws {
        let sdk = GraffityARCloud(configuration: .init(mapId: "gallery", embeddedMapURL: mapURL, clock: .virtual))
        let host = try sdk.makeViewController(session: Fixtures.session(), images: StubImages())
        try await host.loadView()
        #expect(host.scene == scene)
        #expect(sdk.state.isSceneReady)
    }

    // Replace with a real localization on shipped data when the localizer lands.
    @Test("until the localizer lands, localization fails honestly as unavailable")
    func localizerPending() async throws {
        let sdk = GraffityARCloud(configuration: .init(mapId: "gallery", embeddedMapURL: mapURL, clock: .virtual))
        let host = try sdk.makeViewController(session: Fixtures.session(), images: StubImages())
        try await host.loadView()
        try await host.advance(by: .zero)
        guard case .localizerUnavailable? = sdk.state.lastError else {
            Issue.record("expected localizerUnavailable, got \(sdk.state)")
            return
        }
    }

    @Test("a missing map file or another map id is mapNotFound")
    func missingMap() async throws {
        let missing = EmbeddedVPSBackend(mapId: "gallery", mapURL: mapURL.appendingPathExtension("gone"))
        await #expect(throws: VPSBackendError.mapNotFound(mapId: "gallery")) { try await missing.scene(mapId: "gallery") }
        let other = EmbeddedVPSBackend(mapId: "gallery", mapURL: mapURL)
        await #expect(throws: VPSBackendError.mapNotFound(mapId: "lobby")) { try await other.scene(mapId: "lobby") }
    }
}
