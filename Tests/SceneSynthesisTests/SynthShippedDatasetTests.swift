import Foundation
import Geometry
import Testing
import Formats
import SceneSynthesis
import TestSupport
import VPSModel

/// The sessions shipped in Datasets/: valid, reproducible by the generator byte for byte,
/// and with AR content placed where the cameras see it.
@Suite struct SynthShippedDatasetTests {
    static let datasets = PackageDirectory.root.appendingPathComponent("Datasets", isDirectory: true)
    static let names = ["gallery-mapping", "gallery-query-walk", "gallery-query-hard", "other-scene-query"]

    @Test(arguments: names) func shippedSessionIsValid(_ name: String) throws {
        let dir = Self.datasets.appendingPathComponent(name)
        #expect(SessionValidator.validate(directory: dir).isEmpty)
        let session = try RecordedSession.load(from: dir)
        #expect(session.camera.width == 640 && session.camera.height == 480)
        #expect(session.frames.allSatisfy { $0.pose != nil && $0.odometry != nil })
        _ = try SceneDescription.load(from: dir)
    }

    /// Regenerates the smallest shipped session with the options scripts/make-datasets.sh
    /// uses and compares every byte.
    @Test func otherSceneQueryRegeneratesByteForByte() async throws {
        var o = SyntheticSessionOptions(name: "other-scene-query")
        o.layout = "studio"; o.sceneSeed = 99; o.sessionSeed = 41; o.route = .tour; o.frameCount = 20
        let out = try ScratchDirectory("shipped")
        try await SyntheticSessionGenerator(options: o).generate(to: out.url)
        let shipped = Self.datasets.appendingPathComponent("other-scene-query")
        let fresh = try SynthGeneratorTests.files(out.url), original = try SynthGeneratorTests.files(shipped)
        #expect(fresh.keys.sorted() == original.keys.sorted())
        for (name, data) in fresh { #expect(original[name] == data, "\(name) differs from Datasets/") }
    }

    @Test func galleryQueriesShareTheMappingScene() throws {
        let scenes = try Self.names.map { try SceneDescription.load(from: Self.datasets.appendingPathComponent($0)) }
        #expect(scenes[0] == scenes[1] && scenes[0] == scenes[2])
        #expect(scenes[3].name != scenes[0].name && scenes[3].seed != scenes[0].seed)
    }

    /// Every AR object of the gallery is in view (in the image, in front, not hidden by a
    /// wall) in some mapping frame and in some frame of the walking query.
    @Test(arguments: ["gallery-mapping", "gallery-query-walk"]) func arContentIsSeen(_ name: String) throws {
        let dir = Self.datasets.appendingPathComponent(name)
        let session = try RecordedSession.load(from: dir)
        let scene = try SceneDescription.load(from: dir)
        for object in scene.objects {
            let p = object.pose.translation
            let seen = session.frames.contains { f in
                guard let pose = f.pose, let px = session.camera.project(pose.inverse.apply(p)),
                      px.x > 20, px.y > 20, px.x < 620, px.y < 460 else { return false }
                let d = p - pose.center
                let hit = SynthGeneratorTests.rayCast(origin: pose.center, direction: normalize(d), planes: scene.planes)
                guard hit >= 0 else { return true }
                // The first surface along the ray is not (much) nearer than the object.
                let plane = scene.planes[hit]
                let t = dot(plane.normal, plane.corners[0] - pose.center) / dot(plane.normal, normalize(d))
                return t > length(d) - 0.05
            }
            #expect(seen, "\(object.id) is never in view in \(name)")
        }
    }
}
