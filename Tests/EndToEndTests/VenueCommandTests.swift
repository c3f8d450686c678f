import Foundation
import Testing
import TestSupport

/// The venue tools as a user runs them: a small building generated, mapped and localized;
/// their usage mistakes refused with one line.
@Suite struct VenueCommandTests {
    static func scratch(_ label: String) throws -> URL {
        URL(fileURLWithPath: try makeScratchDirectory("venue" + label), isDirectory: true)
    }

    /// One room off a corridor off a hall: its mapping session (at the default density)
    /// builds a map that places the frames of a walk through the room within (5 cm, 2°).
    @Test func aSmallBuildingsMapLocalizesItsWalk() async throws {
        let dir = try Self.scratch("walk")
        defer { try? FileManager.default.removeItem(at: dir) }
        let building = ["--layout", "building", "--floors", "1", "--wings", "1", "--rooms", "1", "--seed", "7"]
        let mapping = dir.appendingPathComponent("mapping").path, walk = dir.appendingPathComponent("walk").path
        let m = try await ArcloudProcess.runOffThread(["dataset", "synth", mapping] + building + ["--session-seed", "11"])
        #expect(m.status == 0, "\(m.stderr)")
        #expect(m.stdout.contains("119 frames"), "\(m.stdout)")   // one per 1.06 s of the route
        let w = try await ArcloudProcess.runOffThread(["dataset", "synth", walk] + building
                                                      + ["--session-seed", "21", "--trajectory", "walk", "--frames", "20"])
        #expect(w.status == 0, "\(w.stderr)")
        let map = dir.appendingPathComponent("venue.vpsmap").path
        // 1,200 features a keyframe (not 2,500): half the build time, and still every walk frame.
        let build = try await ArcloudProcess.runOffThread(["map", "build", "--session", mapping, "--out", map, "--quiet",
                                                           "--features", "1200"])
        #expect(build.status == 0, "\(build.stderr)")
        #expect(build.stdout.contains("4 sections"), "\(build.stdout)")   // hall, corridor, room, doorway
        // The map names the session by its folder, not by this machine's path to it.
        let inspect = try ArcloudProcess.run(["map", "inspect", map])
        let created = inspect.stdout.split(separator: "\n").first { $0.contains("created ") } ?? ""
        #expect(created.hasSuffix(" from session mapping"), "\(inspect.stdout)")
        let run = try await ArcloudProcess.runOffThread(["localize", "--map", map, walk, "--out",
                                                         dir.appendingPathComponent("run").path, "--min-recall", "0.95"])
        #expect(run.status == 0, "\(run.stdout)\n\(run.stderr)")
    }

    /// `serve --map-cache-mb`: the service measures what the shipped map holds when it
    /// loads it (the heap's growth, which `bench scale` found 1.8 times the file for this
    /// map) and counts the load, the hits and the budget in /metrics.
    @Test func serveMeasuresTheMapsItCaches() async throws {
        let dir = try Self.scratch("serve")
        defer { try? FileManager.default.removeItem(at: dir) }
        let maps = dir.appendingPathComponent("maps")
        try FileManager.default.createDirectory(at: maps, withIntermediateDirectories: true)
        let gallery = ArcloudProcess.packageRoot.appendingPathComponent("Maps/gallery.vpsmap")
        try FileManager.default.copyItem(at: gallery, to: maps.appendingPathComponent("gallery.vpsmap"))
        let fileBytes = try #require(try FileManager.default.attributesOfItem(atPath: gallery.path)[.size] as? Int)
        // A request budget long enough for the first request's load, even under ASan.
        let server = try SimulateServer(maps: maps, arguments: ["--map-cache-mb", "1000", "--budget", "600"])
        defer { server.stop() }
        let token = try server.createToken(), url = server.url

        let run = try await ArcloudProcess.runOffThread(["localize", "--server", url, "--token", token, "--map", "gallery",
                                                         "Datasets/other-scene-query", "--concurrency", "1",
                                                         "--out", dir.appendingPathComponent("run").path])
        #expect(run.status == 0, "\(run.stderr)")
        let metrics = try ArcloudProcess.run(["curl", "--silent", "--max-time", "60", url + "/metrics"],
                                             program: URL(fileURLWithPath: "/usr/bin/env")).stdout
        func value(_ name: String) -> Int? {
            metrics.split(separator: "\n").first { $0.hasPrefix(name + " ") }.flatMap { Int($0.split(separator: " ")[1]) }
        }
        #expect(value("arcloud_map_cache_loads_total") == 1)
        #expect(value("arcloud_map_cache_hits_total") == 19)   // 20 frames (of another scene: rejected)
        #expect(value("arcloud_map_cache_evictions_total") == 0)
        #expect(value("arcloud_map_cache_budget_bytes") == 1_000_000_000)
        let held = try #require(value("arcloud_map_cache_resident_bytes"))
        #expect(held > fileBytes * 6 / 5 && held < fileBytes * 4, "the map measured \(held) bytes, its file \(fileBytes)")
    }

    @Test func buildingOptionsAreChecked() throws {
        let dir = try Self.scratch("usage")
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("s").path
        let stray = try ArcloudProcess.run(["dataset", "synth", out, "--floors", "2"])
        #expect(stray.status == 2 && stray.stderr.contains("'--floors' goes with --layout building"), "\(stray.stderr)")
        let zero = try ArcloudProcess.run(["dataset", "synth", out, "--layout", "building", "--rooms", "0"])
        #expect(zero.status == 2 && zero.stderr.contains("--rooms"), "\(zero.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out))
    }

    @Test func benchScaleRefusesBadSizes() throws {
        for sizes in ["1x0x2", "big", "30k,", "2x2"] {
            let r = try ArcloudProcess.run(["bench", "scale", "--sizes", sizes])
            #expect(r.status == 2 && r.stderr.contains("--sizes"), "\(sizes): \(r.stderr)")
        }
        let stray = try ArcloudProcess.run(["bench", "scale", "--map", "Maps/gallery.vpsmap"])
        #expect(stray.status == 2 && stray.stderr.contains("goes with --probe"), "\(stray.stderr)")
    }
}
