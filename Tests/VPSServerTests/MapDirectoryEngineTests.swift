import Foundation
import Testing
import VPS
import VPSClient
import VPSServer

/// The production engine over real map files: listing, scenes over HTTP, path safety, the
/// bounded cache, and an honest 503 while no localizer is plugged in.
@Suite struct MapDirectoryEngineTests {
    let directory: URL

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("maps-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        for (id, section) in [("alpha", "hall"), ("beta", "yard")] {
            let map = try VPSMap(metadata: MapMetadata(name: id, created: Date(timeIntervalSince1970: 0)),
                                 scene: SceneContent(sections: [MapSection(id: section, name: section.capitalized)]),
                                 keyframes: [], points: MapPoints(), observations: [], vocabulary: nil)
            try map.write(to: directory.appendingPathComponent("\(id).vpsmap").path)
        }
        try Data("not a map".utf8).write(to: directory.appendingPathComponent("broken.vpsmap"))
        try Data().write(to: directory.appendingPathComponent("notes.txt"))
    }

    @Test func listsMapFilesAndServesScenes() async throws {
        let engine = MapDirectoryEngine(cache: MapCache(directory: directory), localize: nil)
        #expect(try engine.maps().map(\.id) == ["alpha", "beta", "broken"])
        #expect(try engine.maps().first?.sections == ["hall"])
        #expect(try engine.scene(mapId: "beta").sections.map(\.id) == ["yard"])
        #expect(throws: LocalizationEngineError.unknownMap("gamma")) { try engine.scene(mapId: "gamma") }

        let store = try TokenStore(path: ":memory:")
        let token = try store.create(name: "t").token
        let server = VPSServer(engine: engine, tokens: store)
        try server.start()
        defer { server.stop() }
        let client = try VPSClient(baseURL: server.baseURL, token: token)
        #expect(try await client.scene(mapId: "alpha").sections.first?.name == "Hall")
        do {
            _ = try await client.scene(mapId: "broken")
            Issue.record("expected 503")
        } catch {
            #expect(error.httpStatus == 503 && error.isTransient)
        }
    }

    @Test func mapIdsCannotReachOutsideTheDirectory() {
        let cache = MapCache(directory: directory)
        for id in ["../alpha", "alpha/../beta", ".hidden", "", "a b", "alpha\u{0}", "/etc/passwd", "ål"] {
            #expect(!MapCache.isValidMapId(id), "\(id)")
            #expect(cache.file(of: id) == nil)
        }
        #expect(MapCache.isValidMapId("gallery-2.v1_b"))
        #expect(cache.file(of: "alpha") != nil)
    }

    @Test func cacheLoadsOnFirstUseAndStaysBounded() throws {
        let cache = MapCache(directory: directory, capacity: 1)
        #expect(cache.loadedCount == 0)
        #expect(try cache.map("alpha").metadata.name == "alpha")
        #expect(cache.loadedCount == 1)
        #expect(try cache.map("beta").metadata.name == "beta")
        #expect(cache.loadedCount == 1)
        #expect(throws: LocalizationEngineError.self) { try cache.map("broken") }
        #expect(throws: LocalizationEngineError.unknownMap("nope")) { try cache.map("nope") }
    }

    @Test func withoutALocalizerLocalizeIs503() async throws {
        let engine = MapDirectoryEngine(cache: MapCache(directory: directory), localize: nil)
        let store = try TokenStore(path: ":memory:")
        let token = try store.create(name: "t").token
        let server = VPSServer(engine: engine, tokens: store)
        try server.start()
        defer { server.stop() }
        let client = try VPSClient(baseURL: server.baseURL, token: token)
        do {
            _ = try await client.localize(image: ServerFixture.pngHeader(width: 64, height: 48),
                                          request: ServerFixture.request(mapId: "alpha"))
            Issue.record("expected 503")
        } catch {
            #expect(error == .http(status: 503, code: "unavailable", message: "unavailable: this server has no localizer"))
        }
    }

    @Test func aPluggedInLocalizerIsCalledWithTheLoadedMap() async throws {
        // The seam the VPS localizer plugs into: here a closure that reports what it got.
        let engine = MapDirectoryEngine(cache: MapCache(directory: directory)) { map, image, request in
            LocalizationResult(status: .rejected, inliers: image.count, reason: "map \(map.metadata.name), \(request.intrinsics.width) px")
        }
        let r = try engine.localize(image: [1, 2, 3], request: ServerFixture.request(mapId: "beta"))
        #expect(r.status == .notLocalized)
        #expect(r.reason == "map beta, 64 px")
        #expect(r.inliers == 3)
        #expect(engine.loadedMapCount == 1)
    }
}
