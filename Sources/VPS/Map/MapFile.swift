import Foundation
import Geometry
import Vision

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
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw MapFileError(path: path, reason: .missing)
        }
        if isDirectory.boolValue { throw MapFileError(path: path, reason: .notAMap("it is a directory")) }
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
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
            if version < MapSchema.version {
                throw MapFileError(path: path, reason: .corrupt("format version \(version) is older than this build reads "
                                                                + "(\(MapSchema.version))"))
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
            throw MapFileError(path: path, reason: .corrupt("bad JSON in the map: \(e)"))
        }
    }

    // MARK: Reading

    static func read(_ db: SQLiteDatabase, path: String) throws -> VPSMap {
        let metadata = try readMetadata(db)
        let scene = try readScene(db)
        let keyframes = try readKeyframes(db)
        let points = try readPoints(db)
        let observations = try readObservations(db)
        var vocabulary: Vocabulary?
        if let bytes = try db.scalar("SELECT data FROM retrieval_index WHERE name = 'vocabulary'")?.blob {
            vocabulary = try Vocabulary(serialized: bytes)
        }
        return try VPSMap(metadata: metadata, scene: scene, keyframes: keyframes, points: points,
                          observations: observations, vocabulary: vocabulary)
    }

    static func readMetadata(_ db: SQLiteDatabase) throws -> MapMetadata {
        var info: [String: String] = [:]
        try db.forEachRow("SELECT key, value FROM map_info") { info[$0.text(0) ?? ""] = $0.text(1) ?? "" }
        let decoder = JSONDecoder()
        let camera = try info["camera"].flatMap { try decoder.decode(CameraIntrinsics?.self, from: Data($0.utf8)) }
        let builder = try info["builder"].map { try decoder.decode([String: String].self, from: Data($0.utf8)) } ?? [:]
        let created = info["created"].flatMap { try? Date($0, strategy: .iso8601) } ?? Date(timeIntervalSince1970: 0)
        return MapMetadata(name: info["name"] ?? "", created: created, camera: camera,
                           source: info["source"] ?? "", builder: builder)
    }

    static func readScene(_ db: SQLiteDatabase) throws -> SceneContent {
        var sections: [MapSection] = []
        try db.forEachRow("SELECT idx, id, name, min_x, min_y, min_z, max_x, max_y, max_z FROM sections ORDER BY idx") { r in
            guard r.int(0) == sections.count else { throw MapInconsistency("section indices are not 0, 1, 2…") }
            let bounded = !r.isNull(3) && !r.isNull(6)
            sections.append(MapSection(
                id: r.text(1) ?? "", name: r.text(2) ?? "",
                boundsMin: bounded ? SIMD3(r.double(3), r.double(4), r.double(5)) : nil,
                boundsMax: bounded ? SIMD3(r.double(6), r.double(7), r.double(8)) : nil))
        }
        var objects: [SceneObject] = []
        let decoder = JSONDecoder()
        try db.forEachRow("SELECT id, kind, section, tx, ty, tz, qx, qy, qz, qw, ex, ey, ez, payload FROM scene_objects ORDER BY idx") { r in
            guard let kind = SceneObject.Kind(rawValue: r.text(1) ?? "") else {
                throw MapInconsistency("object '\(r.text(0) ?? "")' has unknown kind '\(r.text(1) ?? "")'")
            }
            let payload = try decoder.decode([String: String].self, from: Data((r.text(13) ?? "{}").utf8))
            objects.append(SceneObject(id: r.text(0) ?? "", kind: kind, sectionId: r.text(2) ?? "",
                                       pose: try pose(r, from: 3), extent: SIMD3(r.double(10), r.double(11), r.double(12)),
                                       payload: payload))
        }
        var nodes: [NavigationGraph.Node] = []
        try db.forEachRow("SELECT id, name, x, y, z, section FROM nav_nodes ORDER BY idx") { r in
            nodes.append(.init(id: r.text(0) ?? "", name: r.text(1) ?? "",
                               position: SIMD3(r.double(2), r.double(3), r.double(4)), sectionId: r.text(5) ?? ""))
        }
        var edges: [NavigationGraph.Edge] = []
        try db.forEachRow("SELECT from_node, to_node, weight FROM nav_edges ORDER BY idx") { r in
            edges.append(.init(from: r.text(0) ?? "", to: r.text(1) ?? "", weight: r.double(2)))
        }
        return SceneContent(sections: sections, objects: objects, navigation: NavigationGraph(nodes: nodes, edges: edges))
    }

    /// A pose from 7 columns tx ty tz qx qy qz qw starting at `i`.
    static func pose(_ r: SQLiteStatement, from i: Int) throws -> Pose {
        let q = Quaternion(x: r.double(i + 3), y: r.double(i + 4), z: r.double(i + 5), w: r.double(i + 6))
        guard abs(q.norm - 1) < 1e-3 else { throw MapInconsistency("a stored rotation is not a unit quaternion") }
        // Renormalising a unit quaternion would change its last bits: keep stored values exact.
        return Pose(rotation: abs(q.norm - 1) < 1e-9 ? q : q.normalized, translation: SIMD3(r.double(i), r.double(i + 1), r.double(i + 2)))
    }

    static func readKeyframes(_ db: SQLiteDatabase) throws -> [MapKeyframe] {
        var keyframes: [MapKeyframe] = []
        let decoder = JSONDecoder()
        try db.forEachRow("""
            SELECT id, name, timestamp, tx, ty, tz, qx, qy, qz, qw, width, height, fx, fy, cx, cy, distortion, section
            FROM keyframes ORDER BY id
            """) { r in
            guard r.int(0) == keyframes.count else { throw MapInconsistency("keyframe ids are not 0, 1, 2…") }
            let distortion = try r.text(16).map { try decoder.decode([Double].self, from: Data($0.utf8)) } ?? []
            let k = CameraIntrinsics(width: r.int(10), height: r.int(11), fx: r.double(12), fy: r.double(13),
                                     cx: r.double(14), cy: r.double(15), distortion: distortion)
            keyframes.append(MapKeyframe(name: r.text(1) ?? "", timestamp: r.double(2), pose: try pose(r, from: 3),
                                         intrinsics: k, section: r.isNull(17) ? nil : r.int(17)))
        }
        return keyframes
    }

    static func readPoints(_ db: SQLiteDatabase) throws -> MapPoints {
        let n = Int(try db.scalar("SELECT coalesce(max(id) + 1, 0) FROM points")?.integer ?? 0)
        var positions = [Double](), descriptors = [UInt8](), counts = [UInt32](), words = [UInt32](), sections = [Int32]()
        positions.reserveCapacity(3 * n); descriptors.reserveCapacity(32 * n)
        counts.reserveCapacity(n); words.reserveCapacity(n); sections.reserveCapacity(n)
        try db.forEachRow("SELECT id, x, y, z, descriptor, observations, word, section FROM points ORDER BY id") { r in
            guard r.int(0) == counts.count else { throw MapInconsistency("point ids are not 0, 1, 2…") }
            positions.append(r.double(1)); positions.append(r.double(2)); positions.append(r.double(3))
            try r.withBlob(4) { b in
                guard b.count == 32 else { throw MapInconsistency("point \(counts.count) has a \(b.count)-byte descriptor") }
                descriptors.append(contentsOf: b)
            }
            counts.append(UInt32(clamping: r.int64(5)))
            words.append(UInt32(clamping: r.int64(6)))
            sections.append(Int32(clamping: r.int64(7)))
        }
        return MapPoints(positions: positions, descriptors: descriptors, observationCounts: counts,
                         words: words, sections: sections)
    }

    static func readObservations(_ db: SQLiteDatabase) throws -> [MapObservation] {
        var out: [MapObservation] = []
        if let n = try db.scalar("SELECT coalesce(sum(count), 0) FROM observations")?.integer { out.reserveCapacity(Int(n)) }
        let size = MapSchema.observationRecordBytes
        try db.forEachRow("SELECT keyframe, count, data FROM observations ORDER BY keyframe") { r in
            let keyframe = UInt32(clamping: r.int64(0)), count = r.int(1)
            try r.withBlob(2) { b in
                guard count >= 0, b.count == count * size else {
                    throw MapInconsistency("keyframe \(keyframe): \(b.count) bytes of observations for \(count)")
                }
                for i in 0..<count {
                    let o = i * size
                    out.append(MapObservation(
                        point: UInt32(littleEndian: b.loadUnaligned(fromByteOffset: o, as: UInt32.self)),
                        keyframe: keyframe,
                        pixel: SIMD2(Float(bitPattern: UInt32(littleEndian: b.loadUnaligned(fromByteOffset: o + 4, as: UInt32.self))),
                                     Float(bitPattern: UInt32(littleEndian: b.loadUnaligned(fromByteOffset: o + 8, as: UInt32.self)))),
                        octave: b[o + 12]))
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
            try db.setUserVersion(MapSchema.version)
            try writeMetadata(map.metadata, db)
            try writeScene(map.scene, db)
            try writeKeyframes(map.keyframes, db)
            try writePoints(map.points, db, progress)
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
        ]
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
