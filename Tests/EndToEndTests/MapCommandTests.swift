import Foundation
import Geometry
import Testing
import MapModel
import VPSModel
import Vision
import Storage
import TestSupport

/// `arcloud map inspect` and `map scene export|import` on a small synthetic map.
@Suite struct MapCommandTests {
    static func scratch() throws -> String { try makeScratchDirectory("mapcli") }

    /// `count` points on a wall seen by 4 keyframes, observations at their exact projections.
    static func smallMap(points count: Int = 200) throws -> VPSMap {
        let k = CameraIntrinsics(width: 640, height: 480, fx: 500, fy: 500, cx: 320, cy: 240)
        let keyframes = (0..<4).map { i in
            MapKeyframe(name: "f\(i)", timestamp: Double(i),
                        pose: .lookAt(eye: SIMD3(Double(i) * 0.3, 1.5, 0), target: SIMD3(Double(i) * 0.3, 1.5, 4)),
                        intrinsics: k)
        }
        var positions: [Double] = [], descriptors: [UInt8] = [], observations: [MapObservation] = []
        let columns = max(20, Int(Double(count).squareRoot()))
        for p in 0..<count {
            let x = SIMD3(Double(p % columns) / Double(columns) * 2 - 0.5, 0.8 + Double(p / columns) / Double(columns) * 2, 4.0)
            positions += [x.x, x.y, x.z]
            descriptors += (0..<32).map { UInt8(truncatingIfNeeded: p &* 31 &+ $0 &* 7) }
            for (i, kf) in keyframes.enumerated() {
                let px = MapGeometry.project(x, pose: kf.pose, intrinsics: k)!
                observations.append(MapObservation(point: UInt32(p), keyframe: UInt32(i),
                                                   pixel: SIMD2(Float(px.x), Float(px.y)), octave: 0))
            }
        }
        let vocab = try Vocabulary.train(descriptors: descriptors, parameters: .adaptive(descriptorCount: count))
        let scene = SceneContent(sections: [MapSection(id: "wall", name: "Wall", boundsMin: SIMD3(-2, 0, 3),
                                                       boundsMax: SIMD3(2, 3, 5))])
        return try VPSMap(metadata: MapMetadata(name: "small", source: "test"), scene: scene, keyframes: keyframes,
                          points: MapPoints(positions: positions, descriptors: descriptors,
                                            observationCounts: [UInt32](repeating: 4, count: count),
                                            words: vocab.words(for: descriptors), sections: [Int32](repeating: 0, count: count)),
                          observations: observations, vocabulary: vocab)
    }

    @Test func inspectPrintsTheFigures() throws {
        let dir = try Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try Self.smallMap().write(to: dir + "/m.vpsmap")
        let r = try ArcloudProcess.run(["map", "inspect", dir + "/m.vpsmap"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("keyframes    4"))
        #expect(r.stdout.contains("points       200"))
        #expect(r.stdout.contains("observations 800"))
        #expect(r.stdout.contains("wall \"Wall\": 200 points"))

        let json = try ArcloudProcess.run(["map", "inspect", dir + "/m.vpsmap", "--json"])
        let stats = try JSONDecoder().decode(MapStatistics.self, from: Data(json.stdout.utf8))
        #expect(stats.points == 200 && stats.trackLengthHistogram == [4: 200])
        #expect(stats.maxReprojectionError < 0.01)
        // Output written before maps held simulated views lacks their count: it still
        // decodes, as none, and every other figure the same.
        var older = try #require(JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(older.removeValue(forKey: "simulatedViewDescriptors") != nil)
        let old = try JSONDecoder().decode(MapStatistics.self, from: JSONSerialization.data(withJSONObject: older))
        #expect(old.simulatedViewDescriptors == 0 && old == stats)
        older.removeValue(forKey: "points")
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(MapStatistics.self, from: JSONSerialization.data(withJSONObject: older))
        }
    }

    @Test func inspectOfABadFileFailsWithOneLineNamingIt() throws {
        let dir = try Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let bad = dir + "/bad.vpsmap"
        try Data("not a map".utf8).write(to: URL(fileURLWithPath: bad))
        let r = try ArcloudProcess.run(["map", "inspect", bad])
        #expect(r.status == 1)
        #expect(r.stderr.contains(bad) && r.stderr.contains("not an arcloud map"))
        #expect(r.stderr.split(separator: "\n").count == 1)
        let missing = try ArcloudProcess.run(["map", "inspect", dir + "/none.vpsmap"])
        #expect(missing.status == 1 && missing.stderr.contains("no such map file"))
    }

    @Test func sceneExportEditImportRoundTrip() throws {
        let dir = try Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let map = dir + "/m.vpsmap", json = dir + "/scene.json"
        try Self.smallMap().write(to: map)
        let export = try ArcloudProcess.run(["map", "scene", "export", map, "--out", json])
        #expect(export.status == 0, "\(export.stderr)")
        var scene = try JSONDecoder().decode(SceneContent.self, from: Data(contentsOf: URL(fileURLWithPath: json)))
        #expect(scene.sections.map(\.id) == ["wall"])

        scene.objects.append(SceneObject(id: "g1", kind: .graffiti, sectionId: "wall",
                                         pose: .init(rotation: .identity, translation: SIMD3(0, 1.5, 3.99)),
                                         extent: SIMD3(1, 1, 0), payload: ["title": "Hello"]))
        scene.navigation = NavigationGraph(nodes: [.init(id: "a", name: "A", position: SIMD3(0, 0, 1), sectionId: "wall"),
                                                   .init(id: "b", name: "B", position: SIMD3(1, 0, 1), sectionId: "wall")],
                                           edges: [.init(from: "a", to: "b", weight: 1)])
        try JSONEncoder().encode(scene).write(to: URL(fileURLWithPath: json))
        let imported = try ArcloudProcess.run(["map", "scene", "import", map, json])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(try VPSMap.loadScene(from: map) == scene)

        // stdout export equals the imported content.
        let out = try ArcloudProcess.run(["map", "scene", "export", map])
        #expect(try JSONDecoder().decode(SceneContent.self, from: Data(out.stdout.utf8)) == scene)

        // An invalid scene is refused and the map is unchanged.
        scene.navigation.edges.append(.init(from: "a", to: "nowhere", weight: 1))
        try JSONEncoder().encode(scene).write(to: URL(fileURLWithPath: json))
        let refused = try ArcloudProcess.run(["map", "scene", "import", map, json])
        #expect(refused.status == 1 && refused.stderr.contains("nowhere"))
        #expect(try VPSMap.loadScene(from: map).navigation.edges.count == 1)
    }

    /// A writer killed (SIGKILL) in the middle of rewriting a map leaves the old file
    /// byte-for-byte intact; the next write cleans up the killed writer's temporary file.
    @Test func killedWriterLeavesTheOldMapIntact() throws {
        let dir = try Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/m.vpsmap", json = dir + "/scene.json"
        try Self.smallMap(points: 30_000).write(to: path)
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        var scene = try VPSMap.loadScene(from: path)
        scene.objects.append(SceneObject(id: "c", kind: .collectible, sectionId: "wall",
                                         pose: .init(rotation: .identity, translation: SIMD3(0, 1, 3)), extent: SIMD3(0.2, 0.2, 0.2)))
        try JSONEncoder().encode(scene).write(to: URL(fileURLWithPath: json))

        // `map scene import` rewrites the whole file; kill it once its temporary file exists.
        // Whether the kill lands before the rename is a race: the file lives about 0.1 s, and
        // a loaded machine can take longer than that to run this thread again. An attempt in
        // which the writer got to rename first proves nothing, so it is repeated on the
        // original file; the test needs one attempt where the kill landed mid-write.
        var landed = false
        for _ in 0..<10 where !landed {
            try before.write(to: URL(fileURLWithPath: path))
            let p = Process()
            p.executableURL = ArcloudProcess.executable
            p.arguments = ["map", "scene", "import", path, json]
            p.standardOutput = FileHandle.nullDevice
            p.standardError = FileHandle.nullDevice
            try p.run()
            let tmp = "\(path).tmp-\(p.processIdentifier)"
            let deadline = Date().addingTimeInterval(120)
            while !FileManager.default.fileExists(atPath: tmp) && p.isRunning && Date() < deadline { usleep(1000) }
            if p.isRunning { kill(p.processIdentifier, SIGKILL) }
            p.waitUntilExit()
            // The writer is gone: its temporary file still there means it died before the rename.
            landed = p.terminationReason == .uncaughtSignal && FileManager.default.fileExists(atPath: tmp)
        }
        try #require(landed, "in 10 attempts the writer always finished before it could be killed")

        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
        #expect(try VPSMap.load(from: path).points.count == 30_000)
        // A complete write succeeds afterwards and removes the stale temporary file.
        try VPSMap.replaceScene(in: path, with: scene)
        #expect(try VPSMap.loadScene(from: path) == scene)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).sorted() == ["m.vpsmap", "scene.json"])
    }

    /// `map build --feature-type`: an ORB map of a few photos suggests SIFT on stderr; a
    /// SIFT map says so in `map inspect`, and a type the builder does not know is refused.
    @Test func featureTypeIsChosenAtBuildAndShownByInspect() async throws {
        let dir = try Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let real = PackageDirectory.root.appendingPathComponent("Tests/Fixtures/real/tum-office").path
        func build(_ type: String) async throws -> ArcloudProcess.Output {
            try await ArcloudProcess.runOffThread(["map", "build", "--colmap", real + "/split-s4/map", "--images", real + "/images",
                                                   "--out", "\(dir)/\(type).vpsmap", "--feature-type", type], timeout: 300)
        }
        let orb = try await build("orb"), sift = try await build("sift")
        #expect(orb.status == 0 && sift.status == 0, "\(orb.stderr) \(sift.stderr)")
        #expect(orb.stderr.contains("--feature-type sift may place more"), "\(orb.stderr)")
        #expect(!sift.stderr.contains("--feature-type sift may") && sift.stderr.contains("SIFT features in 5 keyframes"),
                "\(sift.stderr)")
        let inspected = try ArcloudProcess.run(["map", "inspect", "\(dir)/sift.vpsmap"])
        #expect(inspected.stdout.contains("units unknown, up unknown, SIFT features"), "\(inspected.stdout)")
        #expect(try VPSMap.load(from: "\(dir)/orb.vpsmap").metadata.featureType == .orb)
        let refused = try ArcloudProcess.run(["map", "build", "--colmap", real + "/split-s4/map", "--out", "\(dir)/x.vpsmap",
                                              "--feature-type", "surf"])
        #expect(refused.status == 2 && refused.stderr.contains("must be one of orb|sift"), "\(refused.stderr)")
    }
}
