import Foundation
import Synchronization
import Testing
import MapModel
import VPSModel
import VPSClient
import VPSServer
import Storage
import TestSupport
import ServerTestSupport

/// The production engine over real map files: listing, scenes over HTTP, path safety, the
/// bounded cache, and how localizer failures reach the client.
@Suite struct MapDirectoryEngineTests {
    let directory: URL

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("maps-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        for (id, section) in [("alpha", "hall"), ("beta", "yard")] {
            let map = try VPSMap(metadata: MapMetadata(name: id, created: Date(timeIntervalSince1970: 0),
                                                       units: id == "beta" ? .unknown : .metres),
                                 scene: SceneContent(sections: [MapSection(id: section, name: section.capitalized)]),
                                 keyframes: [], points: MapPoints(), observations: [], vocabulary: nil)
            try map.write(to: directory.appendingPathComponent("\(id).vpsmap").path)
        }
        try Data("not a map".utf8).write(to: directory.appendingPathComponent("broken.vpsmap"))
        try Data().write(to: directory.appendingPathComponent("notes.txt"))
    }

    @Test func listsMapFilesAndServesScenes() async throws {
        let engine = MapDirectoryEngine(directory: directory)
        #expect(try engine.maps().map(\.id) == ["alpha", "beta", "broken"])
        #expect(try engine.maps().first?.sections == ["hall"])
        // Each map's units, for a client that scores poses (none for the file that is no map).
        #expect(try engine.maps().map(\.units) == ["metres", "unknown", nil])
        #expect(try engine.scene(mapId: "beta").sections.map(\.id) == ["yard"])
        #expect(throws: LocalizationEngineError.unknownMap("gamma")) { try engine.scene(mapId: "gamma") }

        let fixture = try EngineServer(engine: engine)
        defer { fixture.stop() }
        let client = fixture.client
        #expect(try await client.scene(mapId: "alpha").sections.first?.name == "Hall")
        #expect(try await client.maps().map(\.units) == ["metres", "unknown", nil])
        do {
            _ = try await client.scene(mapId: "broken")
            Issue.record("expected 503")
        } catch {
            #expect(error.httpStatus == 503 && error.isTransient)
        }
    }

    @Test func theListingFollowsARewrittenScene() throws {
        let engine = MapDirectoryEngine(directory: directory)
        #expect(try engine.maps().first?.sections == ["hall"])
        let map = try VPSMap(metadata: MapMetadata(name: "alpha", created: Date(timeIntervalSince1970: 0)),
                             scene: SceneContent(sections: [MapSection(id: "hall", name: "Hall"), MapSection(id: "annex", name: "Annex")]),
                             keyframes: [], points: MapPoints(), observations: [], vocabulary: nil)
        try map.write(to: directory.appendingPathComponent("alpha.vpsmap").path)
        #expect(try engine.maps().first?.sections == ["hall", "annex"])
    }

    @Test func mapIdsCannotReachOutsideTheDirectory() {
        let cache = MapCache<Int>(directory: directory) { _ in 0 }
        for id in ["../alpha", "alpha/../beta", ".hidden", "", "a b", "alpha\u{0}", "/etc/passwd", "ål"] {
            #expect(!MapDirectory.isValidMapId(id), "\(id)")
            #expect(cache.file(of: id) == nil)
        }
        #expect(MapDirectory.isValidMapId("gallery-2.v1_b"))
        #expect(cache.file(of: "alpha") != nil)
    }

    @Test func cacheLoadsOnFirstUseAndStaysBounded() throws {
        let prepared = Atomic<Int>(0)
        let cache = MapCache<String>(directory: directory, capacity: 1) { map in
            prepared.add(1, ordering: .relaxed)
            return map.metadata.name
        }
        #expect(cache.loadedCount == 0)
        #expect(try cache.value("alpha") == "alpha")
        #expect(try cache.value("alpha") == "alpha")
        #expect(cache.loadedCount == 1)
        #expect(prepared.load(ordering: .relaxed) == 1)          // loaded once, then cached
        #expect(try cache.value("beta") == "beta")
        #expect(cache.loadedCount == 1)                           // alpha evicted
        #expect(try cache.value("alpha") == "alpha")
        #expect(prepared.load(ordering: .relaxed) == 3)
        #expect(throws: LocalizationEngineError.self) { try cache.value("broken") }
        #expect(throws: LocalizationEngineError.unknownMap("nope")) { try cache.value("nope") }
    }

    @Test func concurrentFirstUsesLoadAMapOnce() async throws {
        let prepared = Atomic<Int>(0)
        let cache = MapCache<String>(directory: directory) { map in
            prepared.add(1, ordering: .relaxed)
            return map.metadata.name
        }
        DispatchQueue.concurrentPerform(iterations: 16) { i in
            _ = try? cache.value(i % 2 == 0 ? "alpha" : "beta")
        }
        #expect(prepared.load(ordering: .relaxed) == 2)
        #expect(cache.loadedCount == 2)
    }

    @Test func aMapWithoutPointsIs422OverHTTP() async throws {
        let engine = MapDirectoryEngine(directory: directory)
        let fixture = try EngineServer(engine: engine)
        defer { fixture.stop() }
        let client = fixture.client
        do {
            _ = try await client.localize(image: ServerFixture.pngHeader(width: 64, height: 48),
                                          request: ServerFixture.request(mapId: "alpha"))
            Issue.record("expected 422")
        } catch {
            #expect(error == .http(status: 422, code: "unprocessable", message: "map 'alpha' has no points to localize against"))
        }
        let metrics = try await client.metricsText()
        #expect(metrics.contains(#"arcloud_localizations_total{outcome="failed"} 1"#))
    }
}
