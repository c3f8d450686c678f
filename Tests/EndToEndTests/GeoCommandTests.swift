import Foundation
import Testing
import TestSupport

/// The geo workflow as a user runs it, with exact truth: a street captured with GPS
/// readings of 5 m accuracy builds a georeferenced map, and every frame a walk down the
/// street localizes gets a GeoPose within 2 m of where it truly was; placed by hand on
/// the same origin and heading, within 10 cm.
@Suite struct GeoCommandTests {
    @Test func aStreetMappedWithGPSAnswersWithGeoPoses() async throws {
        let dir = URL(fileURLWithPath: try makeScratchDirectory("geo"), isDirectory: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let street = ["--layout", "street", "--seed", "5", "--georef", "52.3731,4.8922,2.5,30", "--gps-noise", "5"]
        let mapping = dir.appendingPathComponent("mapping").path, walk = dir.appendingPathComponent("walk").path
        let m = try await ArcloudProcess.runOffThread(["dataset", "synth", mapping] + street
                                                      + ["--session-seed", "61", "--frames", "90"])
        #expect(m.status == 0, "\(m.stderr)")
        let w = try await ArcloudProcess.runOffThread(["dataset", "synth", walk] + street
                                                      + ["--session-seed", "52", "--trajectory", "walk", "--frames", "16"])
        #expect(w.status == 0, "\(w.stderr)")
        let map = dir.appendingPathComponent("street.vpsmap").path
        let build = try await ArcloudProcess.runOffThread(["map", "build", "--session", mapping, "--out", map, "--quiet"])
        #expect(build.status == 0, "\(build.stderr)")
        let inspect = try ArcloudProcess.run(["map", "inspect", map])
        #expect(inspect.stdout.contains("georeference gps: origin 52.37"), "\(inspect.stdout)")

        func geoErrors(_ run: String) throws -> (median: Double, max: Double, frames: Int) {
            let data = try Data(contentsOf: dir.appendingPathComponent(run).appendingPathComponent("summary.json"))
            let summary = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            let geo = try #require(summary["geoPoses"] as? [String: Any], "no GeoPose check in \(summary.keys)")
            return (geo["medianHorizontalError"] as! Double, geo["maxHorizontalError"] as! Double, geo["frames"] as! Int)
        }
        let gps = try await ArcloudProcess.runOffThread(["localize", "--map", map, walk, "--out",
                                                         dir.appendingPathComponent("gps").path])
        #expect(gps.status == 0, "\(gps.stderr)")
        let fitted = try geoErrors("gps")
        #expect(fitted.frames >= 12 && fitted.max < 2.0, "\(fitted)")
        let geoJSON = try Data(contentsOf: dir.appendingPathComponent("gps/trajectory.geojson"))
        let collection = try #require(try JSONSerialization.jsonObject(with: geoJSON) as? [String: Any])
        #expect(collection["type"] as? String == "FeatureCollection")

        // Each frame's own GPS as a location prior: the keyframes around it place the frame,
        // as the whole map did. A reading far from the map is ignored: the same frames are placed.
        func priorUses(_ run: String) throws -> [String: Int] {
            let lines = try String(contentsOf: dir.appendingPathComponent(run).appendingPathComponent("results.jsonl"),
                                   encoding: .utf8).split(separator: "\n")
            var uses: [String: Int] = [:]
            for line in lines {
                let o = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
                let r = try #require(o["result"] as? [String: Any])
                if r["status"] as? String == "localized" { uses[r["locationPrior"] as? String ?? "none", default: 0] += 1 }
            }
            return uses
        }
        for (near, use) in [("gps", "narrowed"), ("52.3831,4.8922,10", "outsideMap")] {
            let run = "near-\(use)"
            let r = try await ArcloudProcess.runOffThread(["localize", "--map", map, walk, "--near", near, "--out",
                                                           dir.appendingPathComponent(run).path])
            #expect(r.status == 0, "\(r.stderr)")
            let uses = try priorUses(run)
            #expect(uses == [use: fitted.frames], "\(near): \(uses)")
            #expect(try geoErrors(run).max < 2.0)
        }
        let badNear = try ArcloudProcess.run(["localize", "--map", map, walk, "--near", "52.3,4.8"])
        #expect(badNear.status != 0 && badNear.stderr.contains("LAT,LON,ACCURACY"), "\(badNear.stderr)")

        let placed = try ArcloudProcess.run(["map", "georef", map, "--origin", "52.3731,4.8922,2.5", "--heading", "30"])
        #expect(placed.status == 0 && placed.stdout.contains("georeference manual"), "\(placed.stdout)\(placed.stderr)")
        let manual = try await ArcloudProcess.runOffThread(["localize", "--map", map, walk, "--out",
                                                            dir.appendingPathComponent("manual").path])
        #expect(manual.status == 0, "\(manual.stderr)")
        let byHand = try geoErrors("manual")
        #expect(byHand.max < 0.10, "\(byHand)")
        // Refused with one line: a heading without an origin.
        let bad = try ArcloudProcess.run(["map", "georef", map, "--heading", "30"])
        #expect(bad.status != 0 && bad.stderr.contains("--origin"), "\(bad.stderr)")
    }
}
