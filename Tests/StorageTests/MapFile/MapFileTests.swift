import Foundation
import Geometry
import Testing
import MapModel
import Storage
import TestSupport
import VPSModel

@Suite("Map file: SQLite store")
struct MapFileTests {
    @Test func writeThenLoadRoundTripsEverything() throws {
        let map = try makeSyntheticMap(pointCount: 2000)
        let (dir, path) = try writeToScratchDirectory(map)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let back = try VPSMap.load(from: path)

        #expect(back.metadata == map.metadata)
        #expect(back.scene == map.scene)
        #expect(back.keyframes == map.keyframes)
        #expect(back.points == map.points)
        #expect(back.observations == map.observations)
        #expect(back.keyframeObservationOffsets == map.keyframeObservationOffsets)
        #expect(back.vocabulary?.serialized() == map.vocabulary?.serialized())
        #expect(back.wordIndex == map.wordIndex)
        // The index is usable: every point is found under its own word.
        for i in stride(from: 0, to: back.points.count, by: 97) {
            #expect(back.wordIndex.points(withWord: back.points.words[i]).contains(UInt32(i)))
        }
        #expect(back.sectionId(ofPoint: 0) == map.sectionId(ofPoint: 0))
        // Only the map is left in the directory: no temporary files.
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == ["m.vpsmap"])
    }

    @Test func emptyMapRoundTrips() throws {
        let dir = try makeScratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let map = try VPSMap(metadata: MapMetadata(name: "empty", created: Date(timeIntervalSince1970: 0)),
                             keyframes: [], points: MapPoints(), observations: [], vocabulary: nil)
        try map.write(to: dir + "/e.vpsmap")
        let back = try VPSMap.load(from: dir + "/e.vpsmap")
        #expect(back.points.isEmpty && back.keyframes.isEmpty && back.vocabulary == nil)
        #expect(back.metadata == map.metadata)
    }

    @Test func inconsistentPartsAreRefused() throws {
        let good = try makeSyntheticMap(pointCount: 50, keyframeCount: 4)
        #expect(throws: MapInconsistency.self) {
            try VPSMap(metadata: good.metadata, scene: good.scene, keyframes: Array(good.keyframes.prefix(2)),
                       points: good.points, observations: good.observations, vocabulary: good.vocabulary)
        }
        #expect(throws: MapInconsistency.self) {
            try VPSMap(metadata: good.metadata, scene: SceneContent(), keyframes: good.keyframes,
                       points: good.points, observations: good.observations, vocabulary: good.vocabulary)
        }
        #expect(throws: MapInconsistency.self) {
            try VPSMap(metadata: good.metadata, scene: good.scene, keyframes: good.keyframes,
                       points: good.points, observations: Array(good.observations.dropLast()), vocabulary: good.vocabulary)
        }
    }

    // MARK: Bad files

    private func expectMapError(_ path: String, _ matches: (MapFileError.Reason) -> Bool,
                                sourceLocation: SourceLocation = #_sourceLocation) {
        do {
            _ = try VPSMap.load(from: path)
            Issue.record("\(path) loaded but should not", sourceLocation: sourceLocation)
        } catch let e as MapFileError {
            #expect(matches(e.reason), "unexpected reason: \(e)", sourceLocation: sourceLocation)
            #expect(e.description.contains(path), sourceLocation: sourceLocation)
        } catch {
            Issue.record("expected MapFileError, got \(type(of: error)): \(error)", sourceLocation: sourceLocation)
        }
    }

    @Test func missingEmptyAndDirectoryAreClearErrors() throws {
        let dir = try makeScratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        expectMapError(dir + "/nothing.vpsmap") { $0 == .missing }
        _ = FileManager.default.createFile(atPath: dir + "/empty.vpsmap", contents: Data())
        expectMapError(dir + "/empty.vpsmap") { if case .notAMap = $0 { true } else { false } }
        expectMapError(dir) { if case .notAMap = $0 { true } else { false } }
    }

    @Test func randomBytesAndOtherDatabasesAreNotMaps() throws {
        let dir = try makeScratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        var rng = TestRNG(seed: 3)
        let random = dir + "/random.vpsmap"
        try Data((0..<10_000).map { _ in UInt8.random(in: 0...255, using: &rng) }).write(to: URL(fileURLWithPath: random))
        expectMapError(random) { $0 == .notAMap("not an SQLite database") }

        let text = dir + "/readme.vpsmap"
        try Data("hello, this is not a map\n".utf8).write(to: URL(fileURLWithPath: text))
        expectMapError(text) { if case .notAMap = $0 { true } else { false } }

        let other = dir + "/tokens.sqlite"
        do {
            let db = try SQLiteDatabase(path: other)
            try db.execute("CREATE TABLE tokens (hash BLOB); INSERT INTO tokens VALUES (x'00')")
        }
        expectMapError(other) { $0 == .notAMap("an SQLite database of another kind") }
    }

    @Test func newerSchemaIsRefusedWithBothVersions() throws {
        let (dir, path) = try writeToScratchDirectory(try makeSyntheticMap(pointCount: 30, keyframeCount: 3), named: "future.vpsmap")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try SQLiteDatabase(path: path, mode: .readWrite).setUserVersion(99)
        expectMapError(path) { if case .newerFormat(found: 99, let supported) = $0 { supported < 99 } else { false } }
        // An older layout is refused with a clear reason too.
        try SQLiteDatabase(path: path, mode: .readWrite).setUserVersion(1)
        expectMapError(path) { if case .corrupt(let why) = $0 { why.contains("older") } else { false } }
    }

    @Test func truncatedOrDamagedFilesAreCorrupt() throws {
        let (dir, path) = try writeToScratchDirectory(try makeSyntheticMap(pointCount: 3000))
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(bytes.count > 100_000)

        let truncated = dir + "/truncated.vpsmap"
        try bytes.prefix(bytes.count / 2).write(to: URL(fileURLWithPath: truncated))
        expectMapError(truncated) { if case .corrupt = $0 { true } else { false } }

        // Garbage over interior pages (the header survives, so SQLite opens the file).
        var damaged = bytes
        var rng = TestRNG(seed: 9)
        for i in (bytes.count / 3)..<(bytes.count / 3 + 40_000) { damaged[i] = UInt8.random(in: 0...255, using: &rng) }
        let damagedPath = dir + "/damaged.vpsmap"
        try damaged.write(to: URL(fileURLWithPath: damagedPath))
        expectMapError(damagedPath) { if case .corrupt = $0 { true } else { false } }

        // Only the first 100 bytes: the SQLite header, no pages.
        let headerOnly = dir + "/header.vpsmap"
        try bytes.prefix(100).write(to: URL(fileURLWithPath: headerOnly))
        expectMapError(headerOnly) { reason in
            switch reason { case .corrupt, .notAMap: true; default: false }
        }
    }

    // MARK: Atomic writes

    @Test func interruptedWriteLeavesTheOldMapIntact() throws {
        let old = try makeSyntheticMap(pointCount: 500, seed: 1)
        let (dir, path) = try writeToScratchDirectory(old)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let new = try makeSyntheticMap(pointCount: 20_000, seed: 2)
        struct Interrupted: Error {}
        var stagesSeen: [String] = []
        #expect(throws: Interrupted.self) {
            try new.write(to: path) { p in
                stagesSeen.append(p.stage)
                if p.stage == "points" && p.done >= 8192 && p.done < p.total { throw Interrupted() }
            }
        }
        #expect(stagesSeen == ["points"])
        let back = try VPSMap.load(from: path)
        #expect(back.points == old.points)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == ["m.vpsmap"])
        // A later complete write replaces it.
        try new.write(to: path)
        #expect(try VPSMap.load(from: path).points.count == 20_000)
    }

    @Test func writingIntoAMissingDirectoryFailsNamingTheFile() throws {
        let path = "/nonexistent-arcloud-dir/m.vpsmap"
        let e = #expect(throws: MapFileError.self) { try makeSyntheticMap(pointCount: 10, keyframeCount: 2).write(to: path) }
        #expect(e?.description.contains(path) == true)
    }

    // MARK: Scene content

    @Test func sceneReplacementRoundTripsAndReassignsSections() throws {
        let map = try makeSyntheticMap(pointCount: 1000)
        let (dir, path) = try writeToScratchDirectory(map)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        #expect(try VPSMap.loadScene(from: path) == map.scene)

        // One hall covering everything, and a new object in it.
        var scene = SceneContent(sections: [MapSection(id: "hall", name: "Hall", boundsMin: SIMD3(-6, -2, -6),
                                                       boundsMax: SIMD3(6, 4, 6))])
        scene.objects = [SceneObject(id: "c1", kind: .collectible, sectionId: "hall",
                                     pose: .init(rotation: .identity, translation: SIMD3(0, 1, 0)),
                                     extent: SIMD3(0.2, 0.2, 0.2), payload: ["points": "10"])]
        try VPSMap.replaceScene(in: path, with: scene)
        let back = try VPSMap.load(from: path)
        #expect(back.scene == scene)
        #expect(back.points.sections.allSatisfy { $0 == 0 })
        #expect(back.keyframes.allSatisfy { $0.section == 0 })
        #expect(back.points.positions == map.points.positions)
        #expect(back.sectionId(ofPoint: 5) == "hall")
    }

    @Test func invalidSceneIsRefusedAndTheFileKept() throws {
        let map = try makeSyntheticMap(pointCount: 100, keyframeCount: 4)
        let (dir, path) = try writeToScratchDirectory(map)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        var bad = map.scene
        bad.navigation.edges.append(.init(from: "n-a", to: "nowhere", weight: 1))
        #expect(throws: MapInconsistency.self) { try VPSMap.replaceScene(in: path, with: bad) }
        var badLink = map.scene
        badLink.objects[1].payload = [:]
        #expect(throws: MapInconsistency.self) { try VPSMap.replaceScene(in: path, with: badLink) }
        #expect(try VPSMap.loadScene(from: path) == map.scene)
    }
}
