import Foundation
import Testing
import Localization
import Storage
import TestSupport

/// Values inside a map file are input like any other: counts and ids are checked before
/// anything is allocated from them, and every column is checked for its type and
/// finiteness, with an error naming the table, the row and the column.
@Suite("Map file: hostile values")
struct MapHostileValueTests {
    /// A valid map at a scratch path, damaged by `sql`; returns the load error's text.
    private func loadError(after sql: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        let dir = try makeScratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/m.vpsmap"
        try makeSyntheticMap(pointCount: 200, keyframeCount: 6).write(to: path)
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

    @Test func wrongTypedColumnsAreNamedNotReadAsZero() throws {
        let x = try loadError(after: "UPDATE points SET x = 'abc' WHERE id = 7")
        #expect(x.contains("table points, row 7, column x: expected a number, found text"), "\(x)")
        let width = try loadError(after: "UPDATE keyframes SET width = 'wide' WHERE id = 1")
        #expect(width.contains("table keyframes, row 1, column width: expected an integer, found text"), "\(width)")
        let descriptor = try loadError(after: "UPDATE points SET descriptor = '" + String(repeating: "A", count: 32) + "' WHERE id = 4")
        #expect(descriptor.contains("table points, row 4, column descriptor"), "\(descriptor)")
    }

    @Test func infiniteValuesAreNamed() throws {
        let tx = try loadError(after: "UPDATE keyframes SET tx = 9e999 WHERE id = 3")
        #expect(tx.contains("table keyframes, row 3, column tx: inf is not finite"), "\(tx)")
        let timestamp = try loadError(after: "UPDATE keyframes SET timestamp = -9e999 WHERE id = 0")
        #expect(timestamp.contains("table keyframes, row 0, column timestamp"), "\(timestamp)")
        let node = try loadError(after: "UPDATE nav_nodes SET y = 9e999 WHERE idx = 1")
        #expect(node.contains("table nav_nodes, row 1, column y"), "\(node)")
        let extent = try loadError(after: "UPDATE scene_objects SET ex = 9e999 WHERE idx = 0")
        #expect(extent.contains("table scene_objects, row 0, column ex"), "\(extent)")
    }

    @Test func invalidCameraInMapInfoIsNamed() throws {
        let camera = #"{"width":-640,"height":480,"fx":500,"fy":500,"cx":320,"cy":240,"distortion":[]}"#
        let e = try loadError(after: "UPDATE map_info SET value = '\(camera)' WHERE key = 'camera'")
        #expect(e.contains("table map_info, key 'camera'") && e.contains("not positive"), "\(e)")
    }

    @Test func absurdKeyframeIntrinsicsAreNamed() throws {
        // Finite and positive, yet no camera: the same bounds as a session's camera.
        let focal = try loadError(after: "UPDATE keyframes SET fx = 1e-300 WHERE id = 2")
        #expect(focal.contains("table keyframes, row 2, columns width…distortion: fx = 1e-300 px gives a horizontal field of view of 180°"),
                "\(focal)")
        let distortion = try loadError(after: "UPDATE keyframes SET distortion = '[1e300, 0, 0, 0]' WHERE id = 1")
        #expect(distortion.contains("table keyframes, row 1, columns width…distortion: distortion [1e+300"), "\(distortion)")
    }

    @Test func damagedJSONInsideAMapIsNamed() throws {
        let payload = try loadError(after: "UPDATE scene_objects SET payload = '{\"title\": 3' WHERE idx = 1")
        #expect(payload.contains("table scene_objects, row 1, column payload: bad JSON"), "\(payload)")
        let distortion = try loadError(after: "UPDATE keyframes SET distortion = '[0.1, \"x\", 0, 0]' WHERE id = 2")
        #expect(distortion.contains("table keyframes, row 2, column distortion: bad JSON"), "\(distortion)")
        let builder = try loadError(after: "UPDATE map_info SET value = '[1, 2]' WHERE key = 'builder'")
        #expect(builder.contains("table map_info, key 'builder'"), "\(builder)")
        // No decoder dump: the message is one line and says nothing of Swift's types.
        #expect(!payload.contains("CodingKeys") && !payload.contains("NSCocoaErrorDomain"), "\(payload)")
    }

    @Test func sceneExportReadsThroughTheSameChecks() throws {
        let dir = try makeScratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/m.vpsmap"
        try makeSyntheticMap(pointCount: 50, keyframeCount: 3).write(to: path)
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
