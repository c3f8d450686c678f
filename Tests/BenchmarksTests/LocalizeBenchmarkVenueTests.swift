import Benchmarks
import Foundation
import Geometry
import MapBuilding
import MapModel
import Storage
import TestSupport
import Testing

/// `bench localize --venue`: the localizer on a venue holding the map's capture runs in the
/// same rotation as the map alone, and the table states the time ratio and the poses
/// accepted far off, and arcloud's mean time per stage.
@Suite(.enabled(if: PackageDirectory.galleryMap != nil, "needs Maps/gallery.vpsmap"))
struct LocalizeBenchmarkVenueTests {
    @Test func theVenueRowAndItsRatioAreMeasuredInTheSameRun() throws {
        let dir = URL(fileURLWithPath: try makeScratchDirectory("bench-venue"), isDirectory: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let gallery = try #require(PackageDirectory.galleryMap)
        let venue = try MapMerger().merge([.init(map: gallery, placement: .identity, name: "gallery"),
                                           .init(map: try makeSyntheticMap(pointCount: 3000, keyframeCount: 30, seed: 3),
                                                 placement: Pose(rotation: .identity, translation: SIMD3(100, 0, 0)),
                                                 name: "other")], name: "venue")
        let venuePath = dir.appendingPathComponent("venue.vpsmap").path
        try venue.write(to: venuePath)
        let bench = try LocalizeBenchmark(map: PackageDirectory.root.appendingPathComponent("Maps/gallery.vpsmap").path,
                                          session: PackageDirectory.root.appendingPathComponent("Datasets/gallery-query-walk"),
                                          frameLimit: 3, features: nil, venue: venuePath)
        #expect(bench.headline.contains("venue venue ("))
        let runs = try bench.run()
        let onVenue = try #require(runs.last)
        #expect(onVenue.name == "arcloud venue" && onVenue.milliseconds.count == 3)
        #expect(onVenue.localized == 3)
        let table = LocalizeBenchmarkTable.render(runs, frames: bench.frames)
        #expect(table.contains("arcloud on the venue / on the map alone:") && table.contains("0 accepted outside (25 cm, 5°)"),
                "\(table)")
        // arcloud's own stage times, one per frame, averaged into the table's last line.
        let ours = try #require(runs.first { $0.name == "arcloud" })
        #expect(ours.stages.count == 3 && ours.stages.allSatisfy { $0.extract > 0 && $0.verify > 0 })
        let extract = try #require(ours.meanStages.first { $0.name == "extract" }).milliseconds
        #expect(abs(extract - ours.stages.map(\.extract).reduce(0, +) / 3) < 1e-9)
        #expect(table.contains("arcloud mean ms per stage:") && table.contains("verify "), "\(table)")
        // Refine by step adds up to refine; verify by check to most of verify (the checks are
        // timed apart from the verdict's bookkeeping), never more.
        for t in ours.stages {
            let steps = t.guided.steps.map(\.milliseconds).reduce(0, +)
            let checks = t.judging.checks.map(\.milliseconds).reduce(0, +)
            #expect(abs(steps - t.refine) < 1e-9 * max(1, t.refine), "refine \(t.refine), steps \(t.guided)")
            #expect(checks <= t.verify + 1e-9 && checks > 0.5 * t.verify, "verify \(t.verify), checks \(t.judging)")
        }
        #expect(table.contains("arcloud mean ms in refine, by step:   candidates ")
                && table.contains("arcloud mean ms in verify, by check:  significance "), "\(table)")
    }
}
