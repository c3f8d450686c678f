import Foundation
import Geodesy
import Geometry
import Vision
import MapModel
import VPSModel

/// Progress of writing a map: `done` of `total` rows of `stage` ("points", "observations"…).
/// Throwing from the callback stops the write; the previous file at the path stays intact.
public struct MapWriteProgress: Sendable, Hashable {
    public var stage: String
    public var done: Int
    public var total: Int
}

extension VPSMap {
    /// Reads a map file completely and readies it for localization.
    ///
    /// Checks, in order: the file exists and is not empty, it is SQLite, it is an arcloud
    /// map (application id and `map_info.format`), its format version is one this build
    /// reads, SQLite's `quick_check` passes, and the content is consistent.
    /// - Throws: `MapFileError` naming the file.
    public static func load(from path: String) throws -> VPSMap {
        try MapFile.withMapDatabase(path) { db in try MapFile.read(db, path: path) }
    }

    /// Reads only a map file's facts (`MapMetadata`, the georeference among them) and its
    /// keyframes, not its points: what a service needs to tell where a map lies.
    public static func loadMetadataAndKeyframes(from path: String) throws -> (metadata: MapMetadata, keyframes: [MapKeyframe]) {
        try MapFile.withMapDatabase(path) { db in
            (try MapFile.readMetadata(db, version: try db.userVersion()), try MapFile.readKeyframes(db))
        }
    }

    /// Reads only the scene content (sections, AR objects, navigation graph) of a map file.
    public static func loadScene(from path: String) throws -> SceneContent {
        try MapFile.withMapDatabase(path) { db in try MapFile.readScene(db) }
    }

    /// Writes the map to `path` atomically: into `<path>.tmp-<pid>`, flushed to disk, then
    /// renamed over `path`. When anything fails (or `progress` throws) the old file at
    /// `path`, if any, is untouched and the temporary file is removed.
    public func write(to path: String, progress: ((MapWriteProgress) throws -> Void)? = nil) throws {
        do {
            try AtomicFileReplacement.replace(path) { tmp in
                let db = try SQLiteDatabase(path: tmp, mode: .create)
                // A private temporary file: durability comes from the fsync before the
                // rename, so SQLite's journal would only cost time.
                try db.execute("PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; PRAGMA page_size = 4096")
                try MapFile.write(self, to: db, progress: progress ?? { _ in })
            }
        } catch let e as SQLiteError {
            throw MapFileError(path: path, reason: .io(e.message))
        } catch let e as FileSystemError {
            throw MapFileError(path: path, reason: .io(e.description))
        }
    }

    /// Replaces the scene content of the map file at `path` (atomically, as `write`),
    /// re-assigning points and keyframes to the new sections.
    public static func replaceScene(in path: String, with content: SceneContent) throws {
        var map = try load(from: path)
        try map.replaceScene(content)
        try map.write(to: path)
    }
}

/// Reading and writing the SQLite form (`MapSchema`).
enum MapFile {
    static func withMapDatabase<R>(_ path: String, _ body: (SQLiteDatabase) throws -> R) throws -> R {
        switch FileKind(atPath: path) {
        case .regular: break
        case .missing: throw MapFileError(path: path, reason: .missing)
        // SQLite would block opening a FIFO; a directory or device is no map either.
        case let kind: throw MapFileError(path: path, reason: .notAMap("it is \(kind.phrase)"))
        }
        let size = RegularFile.byteCount(atPath: path)
        if size == 0 { throw MapFileError(path: path, reason: .notAMap("the file is empty")) }
        do {
            let db = try SQLiteDatabase(path: path, mode: .readOnly)
            let appID = try db.applicationID()
            let hasInfo = try db.tableExists("map_info")
            let format = hasInfo ? try db.scalar("SELECT value FROM map_info WHERE key = 'format'")?.text : nil
            guard appID == MapSchema.applicationID, format == MapSchema.formatName else {
                throw MapFileError(path: path, reason: .notAMap("an SQLite database of another kind"))
            }
            let version = try db.userVersion()
            if version > MapSchema.version {
                throw MapFileError(path: path, reason: .newerFormat(found: version, supported: MapSchema.version))
            }
            if version < MapSchema.oldestReadableVersion {
                throw MapFileError(path: path, reason: .corrupt("format version \(version) is older than this build reads "
                                                                + "(\(MapSchema.oldestReadableVersion)…\(MapSchema.version))"))
            }
            try db.checkIntegrity()
            return try body(db)
        } catch let e as SQLiteError {
            switch e.kind {
            case .notADatabase: throw MapFileError(path: path, reason: .notAMap("not an SQLite database"))
            case .cannotOpen, .io, .busy: throw MapFileError(path: path, reason: .io(e.message))
            default: throw MapFileError(path: path, reason: .corrupt(e.message))
            }
        } catch let e as MapInconsistency {
            throw MapFileError(path: path, reason: .corrupt(e.description))
        } catch let e as VocabularyError {
            throw MapFileError(path: path, reason: .corrupt("retrieval index: \(e)"))
        } catch let e as DecodingError {
            throw MapFileError(path: path, reason: .corrupt(MapTableRow.describe(e)))
        }
    }

    // MARK: Reading

    static func read(_ db: SQLiteDatabase, path: String) throws -> VPSMap {
        let metadata = try readMetadata(db, version: try db.userVersion())
        let scene = try readScene(db)
        let keyframes = try readKeyframes(db)
        let points = try readPoints(db)
        let observations = try readObservations(db)
        var vocabulary: Vocabulary?
        if let bytes = try db.scalar("SELECT data FROM retrieval_index WHERE name = 'vocabulary'")?.blob {
            vocabulary = try Vocabulary(serialized: bytes)
        }
        let views = try db.tableExists("point_views") ? try readViewDescriptors(db, table: "point_views") : nil
        let simulated = try db.tableExists("point_simulated_views")
            ? try readViewDescriptors(db, table: "point_simulated_views") : .none
        return try VPSMap(metadata: metadata, scene: scene, keyframes: keyframes, points: points,
                          observations: observations, vocabulary: vocabulary, viewDescriptors: views,
                          simulatedViewDescriptors: simulated)
    }

    // Every column is read through `MapTableRow`: types and finiteness checked, and a bad
    // value named by table, row and column. Counts and ids are checked before anything is
    // allocated from them.

    /// Map facts from `map_info`. Version 2 maps did not record units and up: those
    /// built from sessions were metres and +y; others (COLMAP models) unknown.
    static func readMetadata(_ db: SQLiteDatabase, version: Int = MapSchema.version) throws -> MapMetadata {
        var info: [String: String] = [:]
        try MapTableRow.forEach(db, table: "map_info", "SELECT key, value FROM map_info") { r in
            info[try r.text(0)] = try r.text(1)
        }
        func problem(_ key: String, _ message: String) -> MapInconsistency {
            MapInconsistency("table map_info, key '\(key)', column value: \(message)")
        }
        let camera = try info["camera"].flatMap { text in
            try MapTableRow.decodeJSON(CameraIntrinsics?.self, text) { problem("camera", $0) }
        }
        if let p = camera?.problem { throw problem("camera", p) }
        let builder = try info["builder"].map { text in
            try MapTableRow.decodeJSON([String: String].self, text) { problem("builder", $0) }
        } ?? [:]
        var created = Date(timeIntervalSince1970: 0)
        if let text = info["created"] {
            guard let date = try? Date(text, strategy: .iso8601) else {
                throw problem("created", "'\(text)' is not an ISO 8601 date")
            }
            created = date
        }
        let source = info["source"] ?? ""
        let units: MapUnits, up: MapUpDirection
        if version < 3 {
            let fromSession = source.hasPrefix("session ")
            units = fromSession ? .metres : .unknown
            up = fromSession ? .plusY : .unknown
        } else {
            guard let u = info["units"].flatMap(MapUnits.init(parsing:)) else {
                throw problem("units", "'\(info["units"] ?? "missing")' is not metres or unknown")
            }
            do { up = try MapUpDirection(parsing: info["up"] ?? "") } catch { throw problem("up", "\(error)") }
            units = u
        }
        // Absent in maps without one (and in every map written before georeferences).
        let georeference = try info["georeference"].map { text in
            try MapTableRow.decodeJSON(Georeference.self, text) { problem("georeference", $0) }
        }
        if let p = georeference?.problem { throw problem("georeference", p) }
        var featureType = FeatureType.orb
        if version >= 4 {
            guard let t = info["feature_type"].flatMap(FeatureType.init(rawValue:)) else {
                throw problem("feature_type", "'\(info["feature_type"] ?? "missing")' is not "
                              + FeatureType.allCases.map(\.rawValue).joined(separator: " or "))
            }
            featureType = t
        }
        return MapMetadata(name: info["name"] ?? "", created: created, camera: camera, source: source, builder: builder,
                           units: units, up: up, georeference: georeference, featureType: featureType)
    }

    static func readScene(_ db: SQLiteDatabase) throws -> SceneContent {
        var sections: [MapSection] = []
        try MapTableRow.forEach(db, table: "sections",
                                "SELECT idx, id, name, min_x, min_y, min_z, max_x, max_y, max_z FROM sections ORDER BY idx") { r in
            guard try r.integer(0) == sections.count else { throw r.problem(0, "section indices are not 0, 1, 2…") }
            let bounds = try (3...8).map { try r.optionalReal($0) }
            let present = bounds.compactMap { $0 }
            guard present.isEmpty || present.count == 6 else {
                throw r.problem(3, "bounds must be all six numbers or all NULL")
            }
            sections.append(MapSection(
                id: try r.text(1), name: try r.text(2),
                boundsMin: present.isEmpty ? nil : SIMD3(present[0], present[1], present[2]),
                boundsMax: present.isEmpty ? nil : SIMD3(present[3], present[4], present[5])))
        }
        var objects: [SceneObject] = []
        try MapTableRow.forEach(db, table: "scene_objects",
            "SELECT id, kind, section, tx, ty, tz, qx, qy, qz, qw, ex, ey, ez, payload FROM scene_objects ORDER BY idx") { r in
            let kindName = try r.text(1)
            guard let kind = SceneObject.Kind(rawValue: kindName) else { throw r.problem(1, "unknown kind '\(kindName)'") }
            objects.append(SceneObject(id: try r.text(0), kind: kind, sectionId: try r.text(2),
                                       pose: try pose(r, from: 3), extent: SIMD3(try r.real(10), try r.real(11), try r.real(12)),
                                       payload: try r.json([String: String].self, 13)))
        }
        var nodes: [NavigationGraph.Node] = []
        try MapTableRow.forEach(db, table: "nav_nodes", "SELECT id, name, x, y, z, section FROM nav_nodes ORDER BY idx") { r in
            nodes.append(.init(id: try r.text(0), name: try r.text(1),
                               position: SIMD3(try r.real(2), try r.real(3), try r.real(4)), sectionId: try r.text(5)))
        }
        var edges: [NavigationGraph.Edge] = []
        try MapTableRow.forEach(db, table: "nav_edges", "SELECT from_node, to_node, weight FROM nav_edges ORDER BY idx") { r in
            edges.append(.init(from: try r.text(0), to: try r.text(1), weight: try r.real(2)))
        }
        return SceneContent(sections: sections, objects: objects, navigation: NavigationGraph(nodes: nodes, edges: edges))
    }

    /// A pose from 7 columns tx ty tz qx qy qz qw starting at `i`.
    static func pose(_ r: MapTableRow, from i: Int) throws -> Pose {
        let q = Quaternion(x: try r.real(i + 3), y: try r.real(i + 4), z: try r.real(i + 5), w: try r.real(i + 6))
        guard abs(q.norm - 1) < 1e-3 else { throw r.problem(i + 3, "the rotation is not a unit quaternion (norm \(q.norm))") }
        // Renormalising a unit quaternion would change its last bits: keep stored values exact.
        return Pose(rotation: abs(q.norm - 1) < 1e-9 ? q : q.normalized,
                    translation: SIMD3(try r.real(i), try r.real(i + 1), try r.real(i + 2)))
    }

    static func readKeyframes(_ db: SQLiteDatabase) throws -> [MapKeyframe] {
        var keyframes: [MapKeyframe] = []
        try MapTableRow.forEach(db, table: "keyframes", """
            SELECT id, name, timestamp, tx, ty, tz, qx, qy, qz, qw, width, height, fx, fy, cx, cy, distortion, section
            FROM keyframes ORDER BY id
            """) { r in
            guard try r.integer(0) == keyframes.count else { throw r.problem(0, "keyframe ids are not 0, 1, 2…") }
            let distortion = try r.optionalText(16) == nil ? [] : try r.json([Double].self, 16)
            let k = CameraIntrinsics(width: try r.integer(10, in: 1...16384), height: try r.integer(11, in: 1...16384),
                                     fx: try r.real(12), fy: try r.real(13), cx: try r.real(14), cy: try r.real(15),
                                     distortion: distortion)
            if let p = k.problem { throw r.problem(columns: 10, 16, p) }
            keyframes.append(MapKeyframe(name: try r.text(1), timestamp: try r.real(2), pose: try pose(r, from: 3),
                                         intrinsics: k, section: try r.optionalInteger(17, in: 0...Int(Int32.max))))
        }
        return keyframes
    }

    static func readPoints(_ db: SQLiteDatabase) throws -> MapPoints {
        // Ids must be exactly 0..<count before `count` sizes anything: a lone point with id
        // 10^12 must not reserve terabytes.
        var (n, minId, maxId) = (0, 0, -1)
        try db.forEachRow("SELECT count(*), coalesce(min(id), 0), coalesce(max(id), -1) FROM points") {
            (n, minId, maxId) = ($0.int(0), $0.int(1), $0.int(2))
        }
        guard minId == 0 || n == 0, maxId == n - 1 else {
            throw MapInconsistency("table points: ids run from \(minId) to \(maxId) over \(n) rows; they must be 0, 1, 2…")
        }
        var positions = [Double](), descriptors = [UInt8](), counts = [UInt32](), words = [UInt32](), sections = [Int32]()
        positions.reserveCapacity(3 * n); descriptors.reserveCapacity(32 * n)
        counts.reserveCapacity(n); words.reserveCapacity(n); sections.reserveCapacity(n)
        try MapTableRow.forEach(db, table: "points",
                                "SELECT id, x, y, z, descriptor, observations, word, section FROM points ORDER BY id") { r in
            guard try r.integer(0) == counts.count else { throw r.problem(0, "point ids are not 0, 1, 2…") }
            positions.append(try r.real(1)); positions.append(try r.real(2)); positions.append(try r.real(3))
            try r.withBlob(4) { b in
                guard b.count == 32 else { throw r.problem(4, "a descriptor has 32 bytes, this one \(b.count)") }
                descriptors.append(contentsOf: b)
            }
            counts.append(UInt32(try r.integer(5, in: 0...Int(UInt32.max))))
            words.append(UInt32(try r.integer(6, in: 0...Int(UInt32.max))))
            sections.append(Int32(try r.integer(7, in: -1...Int(Int32.max))))
        }
        return MapPoints(positions: positions, descriptors: descriptors, observationCounts: counts,
                         words: words, sections: sections)
    }

    /// `table` is `point_views` or `point_simulated_views` (same columns).
    static func readViewDescriptors(_ db: SQLiteDatabase, table: String) throws -> MapViewDescriptors {
        // Reserve from the bytes actually stored, never from a count a damaged file may inflate.
        let bytes = Int(try db.scalar("SELECT coalesce(sum(length(descriptor)), 0) FROM \(table)")?.integer ?? 0)
        var descriptors = [UInt8](), points = [UInt32](), words = [UInt32]()
        descriptors.reserveCapacity(bytes); points.reserveCapacity(bytes / 32); words.reserveCapacity(bytes / 32)
        try MapTableRow.forEach(db, table: table, "SELECT id, point, word, descriptor FROM \(table) ORDER BY id") { r in
            guard try r.integer(0) == points.count else { throw r.problem(0, "view descriptor ids are not 0, 1, 2…") }
            points.append(UInt32(try r.integer(1, in: 0...Int(UInt32.max))))
            words.append(UInt32(try r.integer(2, in: 0...Int(UInt32.max))))
            try r.withBlob(3) { b in
                guard b.count == 32 else { throw r.problem(3, "a descriptor has 32 bytes, this one \(b.count)") }
                descriptors.append(contentsOf: b)
            }
        }
        return MapViewDescriptors(descriptors: descriptors, points: points, words: words)
    }

    static func readObservations(_ db: SQLiteDatabase) throws -> [MapObservation] {
        let size = MapSchema.observationRecordBytes
        var out: [MapObservation] = []
        // Reserve from the bytes actually stored, never from the `count` column (which a
        // damaged file may set to 2^62).
        let bytes = try db.scalar("SELECT coalesce(sum(length(data)), 0) FROM observations")?.integer ?? 0
        out.reserveCapacity(Int(bytes) / size)
        try MapTableRow.forEach(db, table: "observations", "SELECT keyframe, count, data FROM observations ORDER BY keyframe") { r in
            let keyframe = UInt32(try r.integer(0, in: 0...Int(UInt32.max)))
            let count = try r.integer(1, in: 0...Int.max)
            try r.withBlob(2) { b in
                // `count <= b.count / size` first, so `count * size` cannot overflow.
                guard count <= b.count / size, b.count == count * size else {
                    throw r.problem(1, "\(b.count) bytes of observations for a count of \(count) (\(size) bytes each)")
                }
                for i in 0..<count {
                    let o = i * size
                    let pixel = SIMD2(Float(bitPattern: UInt32(littleEndian: b.loadUnaligned(fromByteOffset: o + 4, as: UInt32.self))),
                                      Float(bitPattern: UInt32(littleEndian: b.loadUnaligned(fromByteOffset: o + 8, as: UInt32.self))))
                    guard pixel.x.isFinite, pixel.y.isFinite else {
                        throw r.problem(2, "observation \(i) has a pixel that is not finite (\(pixel.x), \(pixel.y))")
                    }
                    out.append(MapObservation(
                        point: UInt32(littleEndian: b.loadUnaligned(fromByteOffset: o, as: UInt32.self)),
                        keyframe: keyframe, pixel: pixel, octave: b[o + 12]))
                }
            }
        }
        return out
    }

    // MARK: Writing

    static func write(_ map: VPSMap, to db: SQLiteDatabase, progress: (MapWriteProgress) throws -> Void) throws {
        try db.transaction(.exclusive) {
            try db.execute(MapSchema.create)
            try db.setApplicationID(MapSchema.applicationID)
            try db.setUserVersion(MapSchema.version(of: map.metadata))
            try writeMetadata(map.metadata, db)
            try writeScene(map.scene, db)
            try writeKeyframes(map.keyframes, db)
            try writePoints(map.points, db, progress)
            try writeViewDescriptors(map.viewDescriptors, table: "point_views", db)
            if map.simulatedViewDescriptors.count > 0 {
                // Older builds ignore the table, and match the map by its photos' descriptors.
                try db.execute(MapSchema.createSimulatedViews)
                try writeViewDescriptors(map.simulatedViewDescriptors, table: "point_simulated_views", db)
            }
            try writeObservations(map.observations, db, progress)
            if let v = map.vocabulary {
                try db.run("INSERT INTO retrieval_index (name, data) VALUES ('vocabulary', ?)", [.blob(v.serialized())])
            }
        }
    }

    static func writeMetadata(_ m: MapMetadata, _ db: SQLiteDatabase) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let rows: [(String, String)] = [
            ("format", MapSchema.formatName),
            ("name", m.name),
            ("created", m.created.formatted(.iso8601)),
            ("source", m.source),
            ("camera", String(decoding: try encoder.encode(m.camera), as: UTF8.self)),
            ("builder", String(decoding: try encoder.encode(m.builder), as: UTF8.self)),
            ("units", m.units.rawValue),
            ("up", m.up.description),
        ] + (try m.georeference.map { [("georeference", String(decoding: try encoder.encode($0), as: UTF8.self))] } ?? [])
            + (MapSchema.version(of: m) >= 4 ? [("feature_type", m.featureType.rawValue)] : [])
        let s = try db.prepare("INSERT INTO map_info (key, value) VALUES (?, ?)")
        for (k, v) in rows { try s.run([.text(k), .text(v)]) }
    }

    static func writeScene(_ scene: SceneContent, _ db: SQLiteDatabase) throws {
        let sections = try db.prepare("INSERT INTO sections VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)")
        for (i, s) in scene.sections.enumerated() {
            let lo = s.boundsMin, hi = s.boundsMax
            try sections.run([.integer(Int64(i)), .text(s.id), .text(s.name),
                              .init(lo?.x), .init(lo?.y), .init(lo?.z), .init(hi?.x), .init(hi?.y), .init(hi?.z)])
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let objects = try db.prepare("INSERT INTO scene_objects VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
        for (i, o) in scene.objects.enumerated() {
            let t = o.pose.translation, q = o.pose.rotation
            try objects.run([.integer(Int64(i)), .text(o.id), .text(o.kind.rawValue), .text(o.sectionId),
                             .real(t.x), .real(t.y), .real(t.z), .real(q.x), .real(q.y), .real(q.z), .real(q.w),
                             .real(o.extent.x), .real(o.extent.y), .real(o.extent.z),
                             .text(String(decoding: try encoder.encode(o.payload), as: UTF8.self))])
        }
        let nodes = try db.prepare("INSERT INTO nav_nodes VALUES (?, ?, ?, ?, ?, ?, ?)")
        for (i, n) in scene.navigation.nodes.enumerated() {
            try nodes.run([.integer(Int64(i)), .text(n.id), .text(n.name),
                           .real(n.position.x), .real(n.position.y), .real(n.position.z), .text(n.sectionId)])
        }
        let edges = try db.prepare("INSERT INTO nav_edges VALUES (?, ?, ?, ?)")
        for (i, e) in scene.navigation.edges.enumerated() {
            try edges.run([.integer(Int64(i)), .text(e.from), .text(e.to), .real(e.weight)])
        }
    }

    static func writeKeyframes(_ keyframes: [MapKeyframe], _ db: SQLiteDatabase) throws {
        let s = try db.prepare("INSERT INTO keyframes VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
        let encoder = JSONEncoder()
        for (i, kf) in keyframes.enumerated() {
            let t = kf.pose.translation, q = kf.pose.rotation, k = kf.intrinsics
            let distortion: SQLiteValue = k.distortion.isEmpty
                ? .null : .text(String(decoding: try encoder.encode(k.distortion), as: UTF8.self))
            try s.run([.integer(Int64(i)), .text(kf.name), .real(kf.timestamp),
                       .real(t.x), .real(t.y), .real(t.z), .real(q.x), .real(q.y), .real(q.z), .real(q.w),
                       .integer(Int64(k.width)), .integer(Int64(k.height)),
                       .real(k.fx), .real(k.fy), .real(k.cx), .real(k.cy), distortion,
                       kf.section.map { .integer(Int64($0)) } ?? .null])
        }
    }

    static let progressChunk = 8192

    static func writePoints(_ p: MapPoints, _ db: SQLiteDatabase, _ progress: (MapWriteProgress) throws -> Void) throws {
        let s = try db.prepare("INSERT INTO points VALUES (?, ?, ?, ?, ?, ?, ?, ?)")
        try p.descriptors.withUnsafeBytes { desc in
            for i in 0..<p.count {
                s.reset()
                try s.bind(Int64(i), at: 1)
                try s.bind(p.positions[3 * i], at: 2)
                try s.bind(p.positions[3 * i + 1], at: 3)
                try s.bind(p.positions[3 * i + 2], at: 4)
                try s.bindBlob(UnsafeRawBufferPointer(rebasing: desc[32 * i..<32 * i + 32]), at: 5)
                try s.bind(Int64(p.observationCounts[i]), at: 6)
                try s.bind(Int64(p.words[i]), at: 7)
                try s.bind(Int64(p.sections[i]), at: 8)
                try s.step()
                if i % progressChunk == progressChunk - 1 { try progress(.init(stage: "points", done: i + 1, total: p.count)) }
            }
        }
        try progress(.init(stage: "points", done: p.count, total: p.count))
    }

    static func writeViewDescriptors(_ v: MapViewDescriptors, table: String, _ db: SQLiteDatabase) throws {
        let s = try db.prepare("INSERT INTO \(table) (id, point, word, descriptor) VALUES (?, ?, ?, ?)")
        try v.descriptors.withUnsafeBytes { desc in
            for i in 0..<v.count {
                s.reset()
                try s.bind(Int64(i), at: 1)
                try s.bind(Int64(v.points[i]), at: 2)
                try s.bind(Int64(v.words[i]), at: 3)
                try s.bindBlob(UnsafeRawBufferPointer(rebasing: desc[32 * i..<32 * i + 32]), at: 4)
                try s.step()
            }
        }
    }

    static func writeObservations(_ obs: [MapObservation], _ db: SQLiteDatabase,
                                  _ progress: (MapWriteProgress) throws -> Void) throws {
        let s = try db.prepare("INSERT INTO observations (keyframe, count, data) VALUES (?, ?, ?)")
        var start = 0
        var bytes: [UInt8] = []
        // Observations are sorted by keyframe: one row per run of equal keyframes.
        while start < obs.count {
            let keyframe = obs[start].keyframe
            var end = start
            while end < obs.count && obs[end].keyframe == keyframe { end += 1 }
            bytes.removeAll(keepingCapacity: true)
            for o in obs[start..<end] {
                withUnsafeBytes(of: o.point.littleEndian) { bytes.append(contentsOf: $0) }
                withUnsafeBytes(of: o.pixel.x.bitPattern.littleEndian) { bytes.append(contentsOf: $0) }
                withUnsafeBytes(of: o.pixel.y.bitPattern.littleEndian) { bytes.append(contentsOf: $0) }
                bytes.append(o.octave)
            }
            s.reset()
            try s.bind(Int64(keyframe), at: 1)
            try s.bind(Int64(end - start), at: 2)
            try s.bindBlob(bytes, at: 3)
            try s.step()
            try progress(.init(stage: "observations", done: end, total: obs.count))
            start = end
        }
        try progress(.init(stage: "observations", done: obs.count, total: obs.count))
    }
}
