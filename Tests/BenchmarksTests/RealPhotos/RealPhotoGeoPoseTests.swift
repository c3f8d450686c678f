import Benchmarks
import Foundation
import Geodesy
import Geometry
import TestSupport
import Testing

/// `bench real` on photos that carry EXIF GPS: the map is georeferenced from its photos'
/// readings (units and up unknown, as for any COLMAP model), and each placed query's
/// GeoPose is measured against the query photo's own reading, the figure a real capture
/// gives without surveyed truth.
@Suite struct RealPhotoGeoPoseTests {
    @Test func photosWithEXIFGPSGetGeoPosesMeasuredAgainstTheirOwnReadings() throws {
        let source = PackageDirectory.root.appendingPathComponent("Tests/Fixtures/real/tum-office", isDirectory: true)
        let scene = URL(fileURLWithPath: try makeScratchDirectory("exif-split"), isDirectory: true)
        defer { try? FileManager.default.removeItem(at: scene) }
        let fm = FileManager.default
        try fm.createDirectory(at: scene.appendingPathComponent("images"), withIntermediateDirectories: true)
        try fm.copyItem(at: source.appendingPathComponent("split-s2"), to: scene.appendingPathComponent("split-s2"))
        let plain = try RealPhotoSplit.load(from: scene.appendingPathComponent("split-s2"))
        // Every photo's true position under a made-up georeference: 10 m per model unit, the
        // model turned arbitrarily, readings exact but stating 5 m, as a phone's would.
        let georeference = Georeference(origin: GeodeticPosition(latitude: 48.137, longitude: 11.575, height: 520), scale: 10,
                                        rotation: Quaternion(axis: normalize(SIMD3(1, 2, 0.5)), angle: 1.1),
                                        translation: .zero, source: .manual)
        let posed = plain.map.images.map { ($0.name, $0.pose) } + zip(plain.queries, plain.truth).map { ($0.name, $1) }
        for (name, pose) in posed {
            let p = georeference.position(ofMapPoint: pose.center)
            let jpeg = try Data(contentsOf: source.appendingPathComponent("images").appendingPathComponent(name))
            try EXIFGPSWriter.insert(into: jpeg, latitude: p.latitude, longitude: p.longitude, altitude: p.height,
                                     horizontalError: 5)
                .write(to: scene.appendingPathComponent("images").appendingPathComponent(name))
        }
        let result = try RealPhotoBenchmark(split: try RealPhotoSplit.load(from: scene.appendingPathComponent("split-s2")))
            .run(peers: .none)
        let arcloud = try #require(result.methods.first)
        let distances = arcloud.gpsDistances
        // Every placed photo has a GeoPose; the readings are exact, so what is left is the
        // pose's own error (under 2 % of a scene of about 30 m) and the fit's.
        #expect(distances.count == arcloud.count(.success) && !distances.isEmpty)
        #expect(distances.allSatisfy { $0 < 1.5 }, "\(distances)")
        let table = RealPhotoTable.total([result])
        #expect(table.contains("GeoPose vs the photos' own EXIF GPS"), "\(table)")
    }
}
