import Foundation
import Testing
import MapModel
import Storage
import TestSupport

/// A map's descriptors from simulated views (`VPSMap.simulatedViewDescriptors`): kept apart
/// from its photos' own, stored in their own table, merged only for the second search.
@Suite("Map file: simulated-view descriptors")
struct MapSimulatedViewsTests {
    /// Simulated descriptors for every fourth point, two each (bits of its own flipped).
    static func simulated(for map: VPSMap) -> MapViewDescriptors {
        var descriptors = [UInt8](), points = [UInt32](), words = [UInt32]()
        for i in stride(from: 0, to: map.points.count, by: 4) {
            for flip in [UInt8(0x0F), 0xF0] {
                var d = Array(map.points.descriptor(i)); d[1] ^= flip
                descriptors += d; points.append(UInt32(i)); words.append(map.vocabulary!.words(for: d)[0])
            }
        }
        return MapViewDescriptors(descriptors: descriptors, points: points, words: words)
    }

    static func with(_ simulated: MapViewDescriptors, _ base: VPSMap) throws -> VPSMap {
        try VPSMap(metadata: base.metadata, scene: base.scene, keyframes: base.keyframes, points: base.points,
                   observations: base.observations, vocabulary: base.vocabulary, viewDescriptors: base.viewDescriptors,
                   simulatedViewDescriptors: simulated)
    }

    @Test func theyRoundTripApartFromThePhotosOwn() throws {
        let base = try makeSyntheticMap(pointCount: 200)
        let map = try Self.with(Self.simulated(for: base), base)
        let (dir, path) = try writeToScratchDirectory(map)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let back = try VPSMap.load(from: path)
        #expect(back.simulatedViewDescriptors == map.simulatedViewDescriptors)
        #expect(back.simulatedViewDescriptors.count == 100)
        #expect(back.viewDescriptors == base.viewDescriptors, "the photos' own are unchanged")
        // A map without them has no table, and loads with none (as every older map does).
        let (plainDir, plainPath) = try writeToScratchDirectory(base)
        defer { try? FileManager.default.removeItem(atPath: plainDir) }
        #expect(try SQLiteDatabase(path: plainPath, mode: .readOnly).tableExists("point_simulated_views") == false)
        #expect(try VPSMap.load(from: plainPath).simulatedViewDescriptors.count == 0)
    }

    /// Merged for the second search: grouped by point, each point's own descriptors first,
    /// nothing lost or added.
    @Test func mergingKeepsEachPointsOwnDescriptorsFirst() throws {
        let base = try makeSyntheticMap(pointCount: 40)
        let map = try Self.with(Self.simulated(for: base), base)
        let merged = map.withSimulatedViewsMatched()
        #expect(merged.simulatedViewDescriptors.count == 0)
        let views = merged.viewDescriptors
        #expect(views.count == base.viewDescriptors.count + map.simulatedViewDescriptors.count)
        #expect(zip(views.points, views.points.dropFirst()).allSatisfy { $0 <= $1 })
        var firstOfPoint: [UInt32: Int] = [:]
        for i in 0..<views.count where firstOfPoint[views.points[i]] == nil { firstOfPoint[views.points[i]] = i }
        for p in 0..<base.points.count {
            #expect(views.descriptor(firstOfPoint[UInt32(p)]!) == base.viewDescriptors.descriptor(p))
        }
        #expect(merged.points.positions == map.points.positions && merged.observations == map.observations)
    }

    /// They need not cover every point, but must name points of the map, grouped, with
    /// words of its vocabulary; a damaged table is named on load.
    @Test func theyMustNamePointsInOrder() throws {
        let base = try makeSyntheticMap(pointCount: 50)
        func attempt(_ points: [UInt32], word: UInt32 = 0) throws {
            let s = MapViewDescriptors(descriptors: [UInt8](repeating: 0, count: 32 * points.count), points: points,
                                       words: [UInt32](repeating: word, count: points.count))
            _ = try Self.with(s, base)
        }
        try attempt([3, 3, 7, 40])
        try attempt([])
        #expect(throws: MapInconsistency.self) { try attempt([7, 3]) }                         // not grouped
        #expect(throws: MapInconsistency.self) { try attempt([3, 50]) }                        // out of range
        #expect(throws: MapInconsistency.self) { try attempt([3], word: UInt32(base.vocabulary!.wordCount)) }

        let (dir, path) = try writeToScratchDirectory(try Self.with(Self.simulated(for: base), base))
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try SQLiteDatabase(path: path, mode: .readWrite).execute("UPDATE point_simulated_views SET point = 99 WHERE id = 0")
        expectCorrupt(path, mentioning: "simulated views")
    }
}
