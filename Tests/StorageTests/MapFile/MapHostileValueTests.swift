import Foundation
import Testing
import MapModel
import Storage
import TestSupport

/// Values inside a map file are input like any other: counts and ids are checked before
/// anything is allocated from them, and every column is checked for its type and
/// finiteness, with an error naming the table, the row and the column.
@Suite("Map file: hostile values")
struct MapHostileValueTests {
    /// A valid map at a scratch path, damaged by `sql`; returns the load error's text.
    private func loadError(after sql: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        let (dir, path) = try writeToScratchDirectory(try makeSyntheticMap(pointCount: 200, keyframeCount: 6))
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try SQLiteDatabase(path: path, mode: .readWrite).execute(sql)
        do {
            _ = try VPSMap.load(from: path)
            Issue.record("the damaged map loaded (\(sql))", sourceLocation: sourceLocation)
            return ""
        } catch let e as MapFileError {
            guard case .corrupt = e.reason else {
                Issue.record("expected .corrupt, got \(e)", sourceLocation: sourceLocation)
                return e.description
            }
            #expect(e.description.hasPrefix(path), sourceLocation: sourceLocation)
            #expect(!e.description.contains("\n"), "one line: \(e)", sourceLocation: sourceLocation)
            return e.description
        }
    }

    // MARK: Counts and ids before allocation

    @Test func hugePointIdIsRefusedBeforeAllocating() throws {
        // Used to reserve 3 * (10^12 + 1) doubles and die ("failed to allocate").
        let e = try loadError(after: "UPDATE points SET id = 1000000000000 WHERE id = 199")
        #expect(e.contains("table points") && e.contains("1000000000000"), "\(e)")
    }

    @Test func hugeObservationCountsAreRefused() throws {
        // 2^40 used to size a reservation; 2^62 overflowed `count * 13`.
        for count in ["1099511627776", "4611686018427387904", "-1"] {
            let e = try loadError(after: "UPDATE observations SET count = \(count) WHERE keyframe = 2")
            #expect(e.contains("table observations, row 2, column count"), "\(e)")
        }
    }

    @Test func outOfRangeIntegersAreRefusedNotClamped() throws {
        let e = try loadError(after: "UPDATE points SET word = -5 WHERE id = 3")
        #expect(e.contains("table points, row 3, column word"), "\(e)")
        let k = try loadError(after: "UPDATE observations SET keyframe = -1 WHERE keyframe = 0")
        #expect(k.contains("table observations") && k.contains("column keyframe"), "\(k)")
    }

    // MARK: Types and finiteness per column

    /// Damage to one value of a column, and what its error must say: the table, the row, the
    /// column (and, where given, why the value is refused).
    static let damagedColumns: [(damage: String, named: String)] = [
        // Wrong types are named, not read as zero.
        ("UPDATE points SET x = 'abc' WHERE id = 7", "table points, row 7, column x: expected a number, found text"),
        ("UPDATE keyframes SET width = 'wide' WHERE id = 1",
         "table keyframes, row 1, column width: expected an integer, found text"),
        ("UPDATE points SET descriptor = '" + String(repeating: "A", count: 32) + "' WHERE id = 4",
         "table points, row 4, column descriptor"),
        // Infinite values.
        ("UPDATE keyframes SET tx = 9e999 WHERE id = 3", "table keyframes, row 3, column tx: inf is not finite"),
        ("UPDATE keyframes SET timestamp = -9e999 WHERE id = 0", "table keyframes, row 0, column timestamp"),
        ("UPDATE nav_nodes SET y = 9e999 WHERE idx = 1", "table nav_nodes, row 1, column y"),
        ("UPDATE scene_objects SET ex = 9e999 WHERE idx = 0", "table scene_objects, row 0, column ex"),
        // Absurd keyframe intrinsics: finite and positive, yet no camera (the same bounds as
        // a session's camera).
        ("UPDATE keyframes SET fx = 1e-300 WHERE id = 2",
         "table keyframes, row 2, columns width…distortion: fx = 1e-300 px gives a horizontal field of view of 180°"),
        ("UPDATE keyframes SET distortion = '[1e300, 0, 0, 0]' WHERE id = 1",
         "table keyframes, row 1, columns width…distortion: distortion [1e+300"),
    ]

    @Test(arguments: damagedColumns)
    func wrongTypedInfiniteOrAbsurdValuesAreNamed(damage: String, named: String) throws {
        let e = try loadError(after: damage)
        #expect(e.contains(named), "\(e)")
    }

    @Test func invalidCameraInMapInfoIsNamed() throws {
        let camera = #"{"width":-640,"height":480,"fx":500,"fy":500,"cx":320,"cy":240,"distortion":[]}"#
        let e = try loadError(after: "UPDATE map_info SET value = '\(camera)' WHERE key = 'camera'")
        #expect(e.contains("table map_info, key 'camera'") && e.contains("not positive"), "\(e)")
    }

    @Test(arguments: [
        ("UPDATE scene_objects SET payload = '{\"title\": 3' WHERE idx = 1", "table scene_objects, row 1, column payload: bad JSON"),
        ("UPDATE keyframes SET distortion = '[0.1, \"x\", 0, 0]' WHERE id = 2", "table keyframes, row 2, column distortion: bad JSON"),
        ("UPDATE map_info SET value = '[1, 2]' WHERE key = 'builder'", "table map_info, key 'builder'"),
    ])
    func damagedJSONInsideAMapIsNamed(damage: String, named: String) throws {
        let e = try loadError(after: damage)
        #expect(e.contains(named), "\(e)")
        // No decoder dump: the message is one line and says nothing of Swift's types.
        #expect(!e.contains("CodingKeys") && !e.contains("NSCocoaErrorDomain"), "\(e)")
    }

    @Test func sceneExportReadsThroughTheSameChecks() throws {
        let (dir, path) = try writeToScratchDirectory(try makeSyntheticMap(pointCount: 50, keyframeCount: 3))
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try SQLiteDatabase(path: path, mode: .readWrite).execute("UPDATE nav_edges SET weight = 9e999")
        let e = #expect(throws: MapFileError.self) { try VPSMap.loadScene(from: path) }
        #expect(e?.description.contains("table nav_edges, row 0, column weight") == true, "\(String(describing: e))")
    }

    @Test func aFIFOIsNotOpened() throws {
        let dir = try makeScratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/pipe.vpsmap"
        #expect(mkfifo(path, 0o644) == 0)
        let e = #expect(throws: MapFileError.self) { try VPSMap.load(from: path) }
        #expect(e?.reason == .notAMap("it is a FIFO"))
    }
}
