import Foundation
import Testing

/// The venue tools as a user runs them: a small building generated, mapped and localized;
/// their usage mistakes refused with one line.
@Suite struct VenueCommandTests {
    static func scratch(_ label: String) throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("arcloud-venue-\(label)-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
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
