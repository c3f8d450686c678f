import Foundation
import Geometry
import Testing
import TestSupport
import VPSModel
import Formats

@Suite struct DatasetFormatTests {
    @Test func sessionRoundTripsThroughTheFolder() throws {
        let dir = try ScratchDirectory()
        let session = DatasetFixtures.session()
        try DatasetFixtures.write(session, to: dir.url)
        let loaded = try RecordedSession.load(from: dir.url)
        #expect(loaded.name == session.name)
        #expect(loaded.camera == session.camera)
        #expect(loaded.script == session.script)
        #expect(loaded.frames.map(\.id) == session.frames.map(\.id))
        for (a, b) in zip(loaded.frames, session.frames) {
            #expect(a.timestamp == b.timestamp && a.image == b.image)
            let e = try #require(a.pose).error(to: try #require(b.pose))
            #expect(e.translation < 1e-12 && e.rotationDegrees < 1e-6)
            let o = try #require(a.odometry).error(to: try #require(b.odometry))
            #expect(o.translation < 1e-12 && o.rotationDegrees < 1e-6)
        }
        // Reading normalises quaternions; after that, writing and reading is byte-stable.
        #expect(try RecordedSession.decode(loaded.encoded()).encoded() == loaded.encoded())
        #expect(SessionValidator.validate(directory: dir.url).isEmpty)
    }

    @Test func sceneDescriptionRoundTrips() throws {
        let dir = try ScratchDirectory()
        let plane = SceneDescription.Plane(id: "a/wall-n", sectionId: "a", kind: .wall, texture: "tex-1",
            corners: [SIMD3(0, 0, 0), SIMD3(4, 0, 0), SIMD3(4, 3, 0), SIMD3(0, 3, 0)])
        let scene = SceneDescription(
            name: "gallery", seed: 42,
            sections: [MapSection(id: "a", name: "Room A", boundsMin: SIMD3(0, 0, 0), boundsMax: SIMD3(4, 3, 4))],
            planes: [plane],
            objects: [SceneObject(id: "link-1", kind: .link, sectionId: "a",
                                  pose: Pose(rotation: Quaternion.identity, translation: SIMD3(2, 1.5, 0.01)),
                                  extent: SIMD3(0.6, 0.4, 0), payload: ["url": "https://example.com"])],
            navigation: NavigationGraph(nodes: [.init(id: "a", name: "Room A", position: SIMD3(2, 0, 2), sectionId: "a")]))
        try scene.write(toDirectory: dir.url)
        let loaded = try SceneDescription.load(from: dir.url)
        #expect(loaded == scene)
        #expect(loaded.content.objects.first?.payload["url"] == "https://example.com")
        // Plane helpers: the normal of this wall faces +z, texture (0,0) is the top-left corner.
        #expect(length(plane.normal - SIMD3(0, 0, 1)) < 1e-12)
        #expect(plane.point(u: 0, v: 0) == SIMD3(0, 3, 0))
        #expect(plane.point(u: 1, v: 1) == SIMD3(4, 0, 0))
    }

    @Test func imageHeadersGiveTheStoredSize() {
        #expect(ImageHeader.parse(DatasetFixtures.jpegHeader(width: 640, height: 480))
                == ImageHeader(format: .jpeg, width: 640, height: 480))
        #expect(ImageHeader.parse(DatasetFixtures.pngHeader(width: 1920, height: 1080))
                == ImageHeader(format: .png, width: 1920, height: 1080))
        #expect(ImageHeader.parse(Data("not an image".utf8)) == nil)
    }
}
