import Localization
import Foundation
import Testing
import MapModel
import MapBuilding
import TestSupport
import VPSModel
import VPSClient
import VPSServer
import Storage

/// The map cache bounded by memory: least recently used maps go first, a map in use stays,
/// and over HTTP the answers stay those of the in-process localizer while maps come and go,
/// as `/metrics` shows. (What a map holds is measured on the heap over its load: that needs
/// a process where nothing else allocates meanwhile, `VenueCommandTests` has one.)
@Suite struct MapCacheBudgetTests {
    let directory: URL

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("map-budget-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        for id in ["alpha", "beta", "gamma"] {
            let map = try VPSMap(metadata: MapMetadata(name: id, created: Date(timeIntervalSince1970: 0)), scene: SceneContent(),
                                 keyframes: [], points: MapPoints(), observations: [], vocabulary: nil)
            try map.write(to: directory.appendingPathComponent("\(id).vpsmap").path)
        }
    }

    /// What a prepared map holds in these tests: 32 MiB.
    final class Ballast: Sendable {
        let name: String
        let bytes: [UInt8]
        init(_ name: String) { self.name = name; bytes = [UInt8](repeating: 1, count: 32 << 20) }
    }

    @Test func evictsTheLeastRecentlyUsedBeyondTheBudget() throws {
        // Sizes as the caller states them: the order of evictions does not depend on
        // what the tests running alongside allocate.
        let cache = MapCache<Ballast>(directory: directory, capacity: 10, budgetBytes: 80 << 20,
                                      size: { $0.bytes.count }) { Ballast($0.metadata.name) }
        #expect(try cache.value("alpha").name == "alpha")
        let one = cache.statistics
        #expect(one.loads == 1 && one.maps == 1 && one.residentBytes == 32 << 20)
        _ = try cache.value("beta")
        _ = try cache.value("alpha")                   // alpha is now the more recent
        #expect(cache.statistics.hits == 1 && cache.statistics.evictions == 0)
        _ = try cache.value("gamma")                   // three do not fit: beta goes
        #expect(cache.statistics.evictions == 1 && cache.loadedCount == 2)
        _ = try cache.value("alpha")
        #expect(cache.statistics.hits == 2)            // still there
        _ = try cache.value("beta")                    // reloaded; gamma (older than alpha) goes
        _ = try cache.value("alpha")
        let s = cache.statistics
        #expect(s.loads == 4 && s.hits == 3 && s.evictions == 2 && s.maps == 2)
        #expect(s.residentBytes <= 80 << 20 && s.budgetBytes == 80 << 20)
    }

    @Test func aMapInUseIsNeverEvicted() throws {
        let cache = MapCache<Ballast>(directory: directory, capacity: 10, budgetBytes: 1,
                                      size: { $0.bytes.count }) { Ballast($0.metadata.name) }
        try cache.withEntry("alpha") { alpha throws(LocalizationEngineError) in
            // Beta loads, is used and goes; alpha, in use, stays over the budget.
            #expect(try cache.value("beta").name == "beta")
            #expect(cache.loadedCount == 1 && cache.statistics.evictions == 1)
            #expect(alpha.value.name == "alpha" && alpha.bytes == 32 << 20)
            #expect(alpha.value.bytes.count == 32 << 20)
        }
        #expect(cache.loadedCount == 0 && cache.statistics.evictions == 2)   // released: now it goes
        #expect(cache.statistics.residentBytes == 0)
    }

    /// Two real maps behind a budget smaller than either: every request loads its map and
    /// the other is gone by then; the answers are the in-process localizer's all the same.
    @Test func answersStayCorrectWhileMapsAreEvictedOverHTTP() async throws {
        let root = PackageDirectory.root
        let gallery = root.appendingPathComponent("Maps/gallery.vpsmap")
        let walk = root.appendingPathComponent("Datasets/gallery-query-walk"), studio = root.appendingPathComponent("Datasets/other-scene-query")
        guard FileManager.default.fileExists(atPath: gallery.path) else { return }
        let maps = directory.appendingPathComponent("served")
        try FileManager.default.createDirectory(at: maps, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: gallery, to: maps.appendingPathComponent("gallery.vpsmap"))
        // The second map: the studio scene, built from its own recorded frames.
        let studioSession = try RecordedSession.load(from: studio)
        let built = try MapBuilder().build(frames: try MapBuildFrame.frames(of: studioSession, in: studio),
                                           metadata: MapMetadata(name: "studio"), scene: nil) { _ in }
        try built.map.write(to: maps.appendingPathComponent("studio.vpsmap").path)

        let engine = MapDirectoryEngine(directory: maps, cacheBudgetBytes: 1)
        let fixture = try EngineServer(engine: engine)
        defer { fixture.stop() }
        let walkSession = try RecordedSession.load(from: walk)
        let cases: [(id: String, session: RecordedSession, dir: URL)] = [("gallery", walkSession, walk), ("studio", studioSession, studio)]
        let localizers = try Dictionary(uniqueKeysWithValues: cases.map {
            ($0.id, try Localizer(map: try VPSMap.load(from: maps.appendingPathComponent("\($0.id).vpsmap").path)))
        })
        var requests = 0, localized = 0
        for k in 0..<3 {
            for c in cases {
                let frame = c.session.frames[k * 5]
                let image = [UInt8](try Data(contentsOf: c.dir.appendingPathComponent(frame.image)))
                let local = try localizers[c.id]!.localize(encoded: image, intrinsics: c.session.camera, gravity: frame.gravity)
                let remote = try await fixture.client.localize(image: image, request: LocalizeRequest(
                    mapId: c.id, intrinsics: c.session.camera, gravity: frame.gravity))
                requests += 1
                #expect(remote.status == (local.isLocalized ? .localized : .notLocalized), "\(c.id) \(frame.id)")
                #expect(remote.inliers == local.inliers && remote.sectionId == local.sectionId)
                if let p = local.pose, let q = remote.pose {
                    let e = p.error(to: q)
                    #expect(e.translation < 1e-9 && e.rotationDegrees < 1e-7, "\(c.id) \(frame.id): \(e)")
                    localized += 1
                }
            }
        }
        #expect(localized >= 4, "only \(localized) of \(requests) frames localized on their own maps")
        let metrics = try await fixture.client.metricsText()
        #expect(metrics.contains("arcloud_map_cache_loads_total \(requests)\n"))
        #expect(metrics.contains("arcloud_map_cache_evictions_total \(requests)\n"))
        #expect(metrics.contains("arcloud_map_cache_hits_total 0\n"))
        #expect(metrics.contains("arcloud_map_cache_budget_bytes 1\n"))
        #expect(metrics.contains("arcloud_map_cache_resident_bytes 0\n"))
        #expect(metrics.contains("arcloud_maps_loaded 0\n"))

        // A budget that holds both: each loads once, then every request is a hit.
        let roomy = MapDirectoryEngine(directory: maps, cacheBudgetBytes: 1 << 40)
        for _ in 0..<2 {
            for c in cases {
                let frame = c.session.frames[0]
                _ = try roomy.localize(image: [UInt8](try Data(contentsOf: c.dir.appendingPathComponent(frame.image))),
                                       request: LocalizeRequest(mapId: c.id, intrinsics: c.session.camera, gravity: frame.gravity))
            }
        }
        let s = try #require(roomy.mapCacheStatistics)
        #expect(s.loads == 2 && s.hits == 2 && s.evictions == 0 && s.maps == 2)
        // Each holds at least its file, the gallery far more than the 20-frame studio.
        #expect(s.residentBytes > (try FileManager.default.attributesOfItem(atPath: gallery.path)[.size] as! Int))
    }
}
