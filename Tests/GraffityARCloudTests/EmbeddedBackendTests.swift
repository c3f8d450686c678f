import Foundation
import Geometry
import GraffityARCloud
import Testing
import MapModel
import VPSModel
import Storage

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
        let sdk = GraffityARCloud(configuration: .init(mapId: "gallery", embeddedMapURL: mapURL))
        let host = try sdk.makeVirtualReplay(session: Fixtures.session(), images: StubImages())
        try await host.loadView()
        #expect(host.scene == scene)
        #expect(sdk.state.isSceneReady)
    }

    @Test("a map without points cannot localize: the session reports localizerUnavailable")
    func mapWithoutPoints() async throws {
        let sdk = GraffityARCloud(configuration: .init(mapId: "gallery", embeddedMapURL: mapURL))
        let host = try sdk.makeVirtualReplay(session: Fixtures.session(), images: StubImages())
        try await host.loadView()
        try await host.advance(by: .zero)
        guard case .localizerUnavailable? = sdk.state.lastError else {
            Issue.record("expected localizerUnavailable, got \(sdk.state)")
            return
        }
    }

    @Test("the embedded backend localizes a real image against a real map")
    func localizesRealImage() async throws {
        let planar = try PlanarMap()
        let backend = EmbeddedVPSBackend(mapId: "gallery", mapURL: planar.url)
        let image = try #require(EncodedImage(data: planar.jpeg))
        let answer = try await backend.localize(LocalizationRequest(mapId: "gallery", image: image,
                                                                    intrinsics: PlanarMap.camera))
        guard case .localized(let fix) = answer else {
            Issue.record("expected a fix, got \(answer)")
            return
        }
        let error = fix.pose.error(to: .identity)
        #expect(error.translation < 0.02)
        #expect(error.rotationDegrees < 0.5)
        #expect(fix.sectionId == "hall")
        #expect(fix.inliers >= 100)
        // The map stays loaded: a second request (with the fix as prior) answers the same way.
        let again = try await backend.localize(LocalizationRequest(mapId: "gallery", image: image,
                                                                   intrinsics: PlanarMap.camera, prior: fix.pose))
        guard case .localized(let second) = again else {
            Issue.record("expected a second fix, got \(again)")
            return
        }
        #expect(second.pose.error(to: .identity).translation < 0.02)
    }

    @Test("the embedded backend localizes shipped query frames near their ground truth")
    func localizesShippedFrames() async throws {
        let session = try ShippedData.querySession()
        let backend = EmbeddedVPSBackend(mapId: ShippedData.mapId, mapURL: ShippedData.mapURL)
        let images = DirectoryFrameImages(directory: ShippedData.queryDirectory)
        // Every tenth frame, single-shot (no prior).
        var errors: [Double] = []
        for frame in stride(from: 0, to: session.frames.count, by: 10).map({ session.frames[$0] }) {
            let answer = try await backend.localize(LocalizationRequest(
                mapId: ShippedData.mapId, image: try images.image(for: frame), intrinsics: session.camera, frameId: frame.id))
            guard case .localized(let fix) = answer else { continue }
            errors.append(fix.pose.error(to: try #require(frame.pose)).translation)
        }
        #expect(errors.count >= 6, "at least 6 of 7 frames localize")
        #expect(errors.sorted()[errors.count / 2] < 0.05, "median error under 5 cm: \(errors)")
    }

    @Test("a session with the embedded VPS localizes its frames and tracks between fixes")
    func sessionLocalizes() async throws {
        let planar = try PlanarMap()
        let frames = (0..<12).map { i in
            RecordedSession.Frame(id: "f\(i)", timestamp: Double(i) / 10, image: "f.jpg",
                                  odometry: Pose(rotation: .identity, translation: SIMD3(0.01 * Double(i), 0, 0)))
        }
        let session = RecordedSession(name: "wall", camera: PlanarMap.camera, frames: frames)
        let sdk = GraffityARCloud(configuration: .init(mapId: "gallery", embeddedMapURL: planar.url))
        let host = try sdk.makeVirtualReplay(session: session, images: planar.images)
        var events = sdk.eventStream().makeAsyncIterator()
        try await host.loadView()
        try await host.advance(by: .seconds(0.5))
        #expect(sdk.state.vpsState == .localized(sectionId: "hall"))
        #expect(sdk.state.lastError == nil)
        guard case .localization(.localized(let frameId, let section, _, _))? = await events.next() else {
            Issue.record("expected a localization event")
            return
        }
        #expect(frameId == "f0" && section == "hall")
        // Five frames after the fix, odometry has moved the camera 5 cm along x.
        let pose = try #require(host.cameraPose)
        #expect(abs(pose.translation.x - 0.05) < 0.02)
    }

    @Test("an image of another size than the intrinsics is refused as a bad request")
    func imageSizeMismatch() async throws {
        let planar = try PlanarMap()
        let backend = EmbeddedVPSBackend(mapId: "gallery", mapURL: planar.url)
        var small = PlanarMap.camera
        small.width = 320; small.height = 240
        let image = try #require(EncodedImage(data: planar.jpeg))
        await #expect(throws: VPSBackendError.self) {
            try await backend.localize(LocalizationRequest(mapId: "gallery", image: image, intrinsics: small))
        }
        do {
            _ = try await backend.localize(LocalizationRequest(mapId: "gallery", image: image, intrinsics: small))
        } catch let VPSBackendError.rejected(status, _) {
            #expect(status == 422)
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
