import Foundation
import Testing
import MapModel
import Storage
import TestSupport

@Suite("Map file: units, up and view descriptors")
struct MapUnitsAndViewsTests {
    @Test func upDirectionParsesAxesVectorsAndUnknown() throws {
        #expect(try MapUpDirection(parsing: "+y") == .plusY)
        #expect(try MapUpDirection(parsing: "y") == .plusY)
        #expect(try MapUpDirection(parsing: "-z").vector == SIMD3(0, 0, -1))
        #expect(try MapUpDirection(parsing: "0,-2,0").vector == SIMD3(0, -1, 0))
        #expect(try MapUpDirection(parsing: "unknown") == .unknown)
        let tilted = try MapUpDirection(parsing: "1, 1, 0")
        #expect(abs(tilted.vector!.x - 0.5.squareRoot()) < 1e-15)
        // The stored form reads back to the same value.
        for up in [MapUpDirection.plusY, try MapUpDirection(parsing: "-x"), tilted, .unknown] {
            #expect(try MapUpDirection(parsing: up.description) == up)
        }
        for bad in ["", "up", "0,0,0", "1,2", "1,nan,0", "+w", "1,2,3,4"] {
            #expect(throws: MapUpDirection.ParseError.self) { try MapUpDirection(parsing: bad) }
        }
        #expect(MapUnits(parsing: "metres") == .metres && MapUnits(parsing: "unknown") == .unknown)
        #expect(MapUnits(parsing: "feet") == nil)
    }

    @Test func unitsUpAndViewDescriptorsRoundTrip() throws {
        let dir = try makeScratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let base = try makeSyntheticMap(pointCount: 300)
        var meta = base.metadata
        meta.units = .unknown
        meta.up = try MapUpDirection(parsing: "0.1,-1,0.2")
        // Two descriptors for every third point: its own and a perturbed one.
        var descriptors = [UInt8](), points = [UInt32](), words = [UInt32]()
        for i in 0..<base.points.count {
            descriptors += base.points.descriptor(i); points.append(UInt32(i)); words.append(base.points.words[i])
            if i % 3 == 0 {
                var d = Array(base.points.descriptor(i)); d[0] ^= 0xFF
                descriptors += d; points.append(UInt32(i)); words.append(base.vocabulary!.words(for: d)[0])
            }
        }
        let views = MapViewDescriptors(descriptors: descriptors, points: points, words: words)
        let map = try VPSMap(metadata: meta, scene: base.scene, keyframes: base.keyframes, points: base.points,
                             observations: base.observations, vocabulary: base.vocabulary, viewDescriptors: views)
        try map.write(to: dir + "/m.vpsmap")
        let back = try VPSMap.load(from: dir + "/m.vpsmap")
        #expect(back.metadata == meta)
        #expect(back.metadata.units == .unknown)
        #expect(back.viewDescriptors == views)
        #expect(back.viewDescriptors.count == 400)
        // Without view descriptors each point is matched by its representative.
        #expect(base.viewDescriptors == MapViewDescriptors(representativesOf: base.points))
    }

    @Test func viewDescriptorsMustCoverEveryPointInOrder() throws {
        let base = try makeSyntheticMap(pointCount: 50)
        func attempt(_ points: [UInt32]) throws {
            let views = MapViewDescriptors(descriptors: [UInt8](repeating: 0, count: 32 * points.count), points: points,
                                           words: [UInt32](repeating: 0, count: points.count))
            _ = try VPSMap(metadata: base.metadata, scene: base.scene, keyframes: base.keyframes, points: base.points,
                           observations: base.observations, vocabulary: base.vocabulary, viewDescriptors: views)
        }
        #expect(throws: MapInconsistency.self) { try attempt((0..<49).map { UInt32($0) }) }          // point 49 missing
        #expect(throws: MapInconsistency.self) { try attempt((0..<50).map { UInt32($0) } + [3]) }    // not grouped
        #expect(throws: MapInconsistency.self) { try attempt((0..<50).map { UInt32($0) } + [50]) }   // out of range
        try attempt((0..<50).flatMap { [UInt32($0), UInt32($0)] })
    }

    /// A version 2 map (no units, up or view descriptors) still loads: a session map as
    /// metres and +y, a COLMAP one as unknown, each point with its one descriptor.
    @Test func version2MapsAreMigratedOnLoad() throws {
        let dir = try makeScratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        for (source, units, up) in [("session Datasets/gallery-mapping", MapUnits.metres, MapUpDirection.plusY),
                                    ("colmap sparse/0", .unknown, .unknown)] {
            var map = try makeSyntheticMap(pointCount: 200)
            map.metadata.source = source
            map.metadata.units = .unknown
            map.metadata.up = try MapUpDirection(parsing: "-z")
            let path = dir + "/old.vpsmap"
            try map.write(to: path)
            do {
                let db = try SQLiteDatabase(path: path, mode: .readWrite)
                try db.execute("DROP TABLE point_views; DELETE FROM map_info WHERE key IN ('units', 'up')")
                try db.setUserVersion(2)
            }
            let back = try VPSMap.load(from: path)
            #expect(back.metadata.units == units)
            #expect(back.metadata.up == up)
            #expect(back.viewDescriptors == MapViewDescriptors(representativesOf: back.points))
        }
    }

    @Test func badUnitsOrUpAreNamed() throws {
        let (dir, path) = try writeToScratchDirectory(try makeSyntheticMap(pointCount: 30, keyframeCount: 3))
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try SQLiteDatabase(path: path, mode: .readWrite).execute("UPDATE map_info SET value = 'feet' WHERE key = 'units'")
        expectCorrupt(path, mentioning: "units")
        try SQLiteDatabase(path: path, mode: .readWrite).execute("""
            UPDATE map_info SET value = 'metres' WHERE key = 'units'; UPDATE map_info SET value = '0,0,0' WHERE key = 'up'
            """)
        expectCorrupt(path, mentioning: "'up'")
    }

    /// A SIFT map says so (schema version 4, so that a build reading it as ORB refuses it);
    /// an ORB map stays version 3, which older builds read.
    @Test func featureTypeRoundTripsAndOnlySIFTMapsNeedTheNewerFormat() throws {
        var map = try makeSyntheticMap(pointCount: 30, keyframeCount: 3)
        let (dir, orbPath) = try writeToScratchDirectory(map)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        #expect(try SQLiteDatabase(path: orbPath, mode: .readOnly).userVersion() == 3)
        #expect(try VPSMap.load(from: orbPath).metadata.featureType == .orb)

        map.metadata.featureType = .sift
        let siftPath = dir + "/sift.vpsmap"
        try map.write(to: siftPath)
        #expect(try SQLiteDatabase(path: siftPath, mode: .readOnly).userVersion() == 4)
        #expect(try VPSMap.load(from: siftPath).metadata == map.metadata)

        try SQLiteDatabase(path: siftPath, mode: .readWrite).execute("UPDATE map_info SET value = 'surf' WHERE key = 'feature_type'")
        expectCorrupt(siftPath, mentioning: "'surf' is not orb or sift")
        try SQLiteDatabase(path: siftPath, mode: .readWrite).execute("DELETE FROM map_info WHERE key = 'feature_type'")
        expectCorrupt(siftPath, mentioning: "feature_type")
    }
}
