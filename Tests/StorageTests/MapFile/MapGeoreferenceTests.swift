import Foundation
import Geodesy
import Geometry
import MapModel
import Storage
import TestSupport
import Testing

@Suite("Map file: georeference")
struct MapGeoreferenceTests {
    @Test func aGeoreferenceRoundTripsAndAMapWithoutOneReadsBackWithout() throws {
        let dir = try makeScratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        var map = try makeSyntheticMap(pointCount: 200)
        let path = dir + "/plain.vpsmap"
        try map.write(to: path)
        #expect(try VPSMap.load(from: path).metadata.georeference == nil)
        let fitted = Georeference(origin: GeodeticPosition(latitude: -33.8568, longitude: 151.2153, height: 12.5),
                                  scale: 0.998, rotation: Quaternion(axis: SIMD3(0.2, 0.1, 1) / length(SIMD3(0.2, 0.1, 1)), angle: 1.1),
                                  translation: SIMD3(3.5, -2, 0.25), source: .gps,
                                  residuals: .init(horizontalRMS: 4.2, verticalRMS: 9, inliers: 57, readings: 60,
                                                   centroid: SIMD3(1, 2, 0), spread: 40))
        map.metadata.georeference = fitted
        try map.write(to: dir + "/geo.vpsmap")
        #expect(try VPSMap.load(from: dir + "/geo.vpsmap").metadata.georeference == fitted)
    }

    @Test func aCorruptGeoreferenceIsRefusedByName() throws {
        let dir = try makeScratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        var map = try makeSyntheticMap(pointCount: 50)
        map.metadata.georeference = try Georeference.manual(origin: GeodeticPosition(latitude: 10, longitude: 20), headingDegrees: 0)
        let path = dir + "/geo.vpsmap"
        try map.write(to: path)
        for bad in ["{\"scale\": 1}", "not json", "{\"origin\": {\"latitude\": 95, \"longitude\": 0, \"height\": 0}, "
                    + "\"scale\": 1, \"rotation\": {\"x\": 0, \"y\": 0, \"z\": 0, \"w\": 1}, "
                    + "\"translation\": {\"east\": 0, \"north\": 0, \"up\": 0}, \"source\": \"manual\"}"] {
            try SQLiteDatabase(path: path, mode: .readWrite)
                .execute("UPDATE map_info SET value = '\(bad)' WHERE key = 'georeference'")
            #expect {
                _ = try VPSMap.load(from: path)
            } throws: { error in
                "\(error)".contains("georeference")
            }
        }
    }
}
