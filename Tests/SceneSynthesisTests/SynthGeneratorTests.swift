import Foundation
import Geometry
import Testing
import Vision
import Formats
import SceneSynthesis
import TestSupport
import VPSModel

@Suite struct SynthGeneratorTests {
    static func options(seed: UInt64 = 3, route: SyntheticSessionOptions.Route = .tour) -> SyntheticSessionOptions {
        var o = SyntheticSessionOptions(name: "tiny")
        o.layout = "studio"; o.sceneSeed = seed; o.sessionSeed = seed; o.route = route
        o.frameCount = 3; o.width = 96; o.height = 72
        o.textureScale = 0.25  // 64 px/m walls: enough for 96×72 frames, and fast
        return o
    }

    static func files(_ dir: URL) throws -> [String: Data] {
        var out: [String: Data] = [:]
        let e = FileManager.default.enumerator(at: dir, includingPropertiesForKeys: nil)
        while let url = e?.nextObject() as? URL {
            guard !url.hasDirectoryPath, let data = try? Data(contentsOf: url) else { continue }
            out[String(url.path.dropFirst(dir.path.count))] = data
        }
        return out
    }

    @Test func sameSeedGivesIdenticalBytesAndOtherSeedsDiffer() async throws {
        let a = try ScratchDirectory("synth-a"), b = try ScratchDirectory("synth-b"), c = try ScratchDirectory("synth-c")
        try await SyntheticSessionGenerator(options: Self.options()).generate(to: a.url)
        try await SyntheticSessionGenerator(options: Self.options()).generate(to: b.url)
        try await SyntheticSessionGenerator(options: Self.options(seed: 4)).generate(to: c.url)
        let fa = try Self.files(a.url), fb = try Self.files(b.url), fc = try Self.files(c.url)
        #expect(fa.count == 5)  // session.json, scene.json, 3 frames
        #expect(fa == fb)
        for (name, data) in fa where name.hasPrefix("/frames/") { #expect(fc[name] != data, "\(name) equal across seeds") }
        #expect(SessionValidator.validate(directory: a.url).isEmpty)
    }

    /// `motionBlur` 0 changes the exposure and nothing else: the same poses and odometry,
    /// frames that differ, and sharper ones (more energy in horizontal differences).
    @Test func motionBlurZeroKeepsTheRouteAndSharpensTheFrames() async throws {
        let blurred = try ScratchDirectory("synth-blur"), sharp = try ScratchDirectory("synth-sharp")
        var o = Self.options(route: .hard)
        o.width = 192; o.height = 144; o.imageFormat = .png
        try await SyntheticSessionGenerator(options: o).generate(to: blurred.url)
        o.motionBlur = 0
        try await SyntheticSessionGenerator(options: o).generate(to: sharp.url)
        let a = try RecordedSession.load(from: blurred.url), b = try RecordedSession.load(from: sharp.url)
        #expect(a.frames.map(\.pose) == b.frames.map(\.pose))
        #expect(a.frames.map(\.odometry) == b.frames.map(\.odometry))
        func energy(_ session: RecordedSession, _ dir: URL) throws -> Double {
            var sum = 0.0
            for f in session.frames {
                let image = try GrayImage(decoding: Array(try Data(contentsOf: dir.appendingPathComponent(f.image))))
                for y in 0..<image.height {
                    for x in 1..<image.width {
                        let d = Double(image[x, y]) - Double(image[x - 1, y])
                        sum += d * d
                    }
                }
            }
            return sum
        }
        let blurredEnergy = try energy(a, blurred.url), sharpEnergy = try energy(b, sharp.url)
        #expect(sharpEnergy > 1.2 * blurredEnergy, "sharp \(sharpEnergy), blurred \(blurredEnergy)")
        o.motionBlur = -1
        #expect(o.problem == "motion blur must be 0...5")
    }

    @Test func sessionCarriesGroundTruthOdometryAndItsScene() async throws {
        let dir = try ScratchDirectory("synth-gt")
        var o = Self.options(route: .walk)
        o.frameCount = 6
        try await SyntheticSessionGenerator(options: o).generate(to: dir.url)
        let session = try RecordedSession.load(from: dir.url)
        let scene = try SceneDescription.load(from: dir.url)
        #expect(session.frames.count == 6)
        #expect(session.camera.width == 96 && session.camera.height == 72)
        #expect(scene.name == "studio" && scene.seed == 3)
        #expect(scene.sections.map(\.id) == ["room-d", "passage", "room-e"])
        for f in session.frames {
            let pose = try #require(f.pose)
            // Camera at hand height inside one of the sections.
            #expect(pose.center.y > 1.3 && pose.center.y < 1.7)
            #expect(scene.sections.contains { $0.contains(pose.center) })
        }
        // Odometry is the ground truth in another (drifting) frame: relative motion agrees
        // within a few centimetres per metre, absolute positions do not.
        let gt = session.frames.map { $0.pose! }, odo = session.frames.map { $0.odometry! }
        #expect(length(gt[0].center - odo[0].center) > 0.1)
        for k in 1..<gt.count {
            let dGT = gt[k - 1].inverse * gt[k], dOdo = odo[k - 1].inverse * odo[k]
            let e = dGT.error(to: dOdo)
            #expect(e.translation < 0.05 + 0.06 * length(dGT.translation))
            #expect(e.rotationDegrees < 1.5)
        }
        // The scene: every AR object in a known section; links carry a URL; the navigation
        // graph's edges join known nodes with Euclidean weights.
        #expect(Set(scene.objects.map(\.kind)) == [.graffiti, .collectible, .link])
        for obj in scene.objects {
            let section = try #require(scene.sections.first { $0.id == obj.sectionId })
            #expect(section.contains(obj.pose.translation + SIMD3(0, 0, 0)) || obj.kind != .collectible)
            if obj.kind == .link { #expect(obj.payload["url"]?.hasPrefix("https://") == true) }
        }
        let nodes = Dictionary(uniqueKeysWithValues: scene.navigation.nodes.map { ($0.id, $0) })
        #expect(!scene.navigation.edges.isEmpty)
        for e in scene.navigation.edges {
            let a = try #require(nodes[e.from]), b = try #require(nodes[e.to])
            #expect(abs(e.weight - length(a.position - b.position)) < 0.001)
        }
    }

    /// The generated images show the planes of scene.json where the ground-truth pose says:
    /// ray-casting the scene description per pixel gives the plane the renderer drew.
    @Test func renderedPlanesMatchARayCastOfTheSceneDescription() async throws {
        var o = Self.options(route: .walk)
        o.width = 64; o.height = 48
        let generator = try SyntheticSessionGenerator(options: o)
        let scene = generator.plannedScene().scene
        let trajectory = generator.trajectory()
        let cam = generator.camera
        let texture = try RenderTexture(width: 8, height: 8, ops: [.fill(RGBColor(128, 128, 128))])
        let planes = scene.planes.map { RenderPlane(corners: $0.corners, texture: texture) }
        for t in trajectory.frameTimes(count: 4) {
            let pose = trajectory.pose(at: t)
            let ids = try #require(try Renderer.render(camera: cam, poses: [pose], planes: planes, planeIds: true).planeIds)
            var agree = 0, total = 0
            for y in stride(from: 0, to: cam.height, by: 3) {
                for x in stride(from: 0, to: cam.width, by: 3) {
                    total += 1
                    let dir = pose.rotation.rotate(cam.ray(SIMD2(Double(x), Double(y))))
                    let hit = Self.rayCast(origin: pose.center, direction: dir, planes: scene.planes)
                    if hit == Int(ids[y * cam.width + x]) { agree += 1 }
                }
            }
            // Only pixels exactly on a plane boundary may disagree.
            #expect(Double(agree) / Double(total) > 0.97, "agreement \(agree)/\(total) at t=\(t)")
        }
    }

    static func rayCast(origin: SIMD3<Double>, direction: SIMD3<Double>, planes: [SceneDescription.Plane]) -> Int {
        var best = -1, bestT = Double.infinity
        for (i, p) in planes.enumerated() {
            let n = p.normal
            let denom = dot(n, direction)
            guard abs(denom) > 1e-12 else { continue }
            let t = dot(n, p.corners[0] - origin) / denom
            guard t > 0.05, t < bestT else { continue }
            let q = origin + direction * t
            let ex = p.corners[1] - p.corners[0], ey = p.corners[3] - p.corners[0]
            let u = dot(q - p.corners[0], ex) / dot(ex, ex), v = dot(q - p.corners[0], ey) / dot(ey, ey)
            if u >= 0 && u <= 1 && v >= 0 && v <= 1 { best = i; bestT = t }
        }
        return best
    }
}
