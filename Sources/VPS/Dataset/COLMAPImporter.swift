import Foundation
import Geometry

/// Imports a COLMAP text model (`cameras.txt`, `images.txt`) and its images folder as a
/// recorded session with ground-truth poses.
///
/// COLMAP stores world-to-camera `qvec` (w, x, y, z) and `tvec`; the session stores
/// `T_map_camera`, the inverse. Camera models: SIMPLE_PINHOLE, PINHOLE, SIMPLE_RADIAL,
/// RADIAL and OPENCV (radial terms become OpenCV `k1 k2 p1 p2 k3`). A session has one
/// camera: images of the camera most used (or `cameraId`) are imported, the rest skipped.
/// COLMAP has no timestamps: images are ordered by name, `1 / fps` seconds apart.
public struct COLMAPImporter: Sendable {
    public var fps: Double = 10
    public var cameraId: Int? = nil

    public init() {}

    /// What an import did.
    public struct Result: Sendable {
        public var session: RecordedSession
        /// Images skipped because they belong to another camera.
        public var skipped: Int
    }

    /// Reads the model in `model` (folder with cameras.txt and images.txt) with images in
    /// `images`, and writes the session into `output` (images copied into `frames/`).
    @discardableResult
    public func importModel(from model: URL, images: URL, to output: URL, name: String) throws -> Result {
        let cameras = try Self.readCameras(model.appendingPathComponent("cameras.txt"))
        let entries = try Self.readImages(model.appendingPathComponent("images.txt"))
        guard !entries.isEmpty else { throw DatasetImportError("images.txt", "lists no images") }
        var uses: [Int: Int] = [:]
        for e in entries { uses[e.cameraId, default: 0] += 1 }
        let chosen = cameraId ?? uses.max { $0.value != $1.value ? $0.value < $1.value : $0.key > $1.key }!.key
        guard let camera = cameras[chosen] else {
            throw DatasetImportError("cameras.txt", "camera \(chosen) used by images.txt is not defined")
        }
        let selected = entries.filter { $0.cameraId == chosen }.sorted { $0.name < $1.name }
        let fm = FileManager.default
        try fm.createDirectory(at: output.appendingPathComponent("frames"), withIntermediateDirectories: true)
        var frames: [RecordedSession.Frame] = []
        for (i, e) in selected.enumerated() {
            let source: URL
            do { source = try ContainedPath.regularFile(e.name, in: images, source: "images.txt") } catch let e2 as ContainedPathError {
                throw DatasetImportError("images.txt", line: e.line, e2.problem)
            }
            let id = String(format: "%06d", i)
            let image = "frames/\(id).\(source.pathExtension.lowercased())"
            let target = output.appendingPathComponent(image)
            if fm.fileExists(atPath: target.path) { try fm.removeItem(at: target) }
            try fm.copyItem(at: source, to: target)
            frames.append(.init(id: id, timestamp: (Double(i) / fps * 1e6).rounded() / 1e6, image: image,
                                pose: e.worldToCamera.inverse))
        }
        let session = RecordedSession(name: name, camera: camera, frames: frames)
        try session.write(toDirectory: output)
        return Result(session: session, skipped: entries.count - selected.count)
    }

    /// Camera id → intrinsics from `cameras.txt`.
    public static func readCameras(_ url: URL) throws -> [Int: CameraIntrinsics] {
        var out: [Int: CameraIntrinsics] = [:]
        for (n, line) in try lines(url) where !line.isEmpty {
            let f = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
            func bad(_ m: String) -> DatasetImportError { DatasetImportError(url.lastPathComponent, line: n, m) }
            guard f.count >= 4, let id = Int(f[0]), let w = Int(f[2]), let h = Int(f[3]) else {
                throw bad("expected 'CAMERA_ID MODEL WIDTH HEIGHT PARAMS…'")
            }
            let p = f.dropFirst(4).compactMap(Double.init)
            guard p.count == f.count - 4 else { throw bad("camera parameters must be numbers") }
            let model = f[1].uppercased()
            let need = ["SIMPLE_PINHOLE": 3, "PINHOLE": 4, "SIMPLE_RADIAL": 4, "RADIAL": 5, "OPENCV": 8][model]
            guard let need else {
                throw bad("camera model \(model) is not supported (SIMPLE_PINHOLE, PINHOLE, SIMPLE_RADIAL, RADIAL, OPENCV)")
            }
            guard p.count == need else { throw bad("\(model) needs \(need) parameters, got \(p.count)") }
            let cam: CameraIntrinsics = switch model {
            case "SIMPLE_PINHOLE": .init(width: w, height: h, fx: p[0], fy: p[0], cx: p[1], cy: p[2])
            case "PINHOLE": .init(width: w, height: h, fx: p[0], fy: p[1], cx: p[2], cy: p[3])
            case "SIMPLE_RADIAL": .init(width: w, height: h, fx: p[0], fy: p[0], cx: p[1], cy: p[2], distortion: [p[3], 0, 0, 0])
            case "RADIAL": .init(width: w, height: h, fx: p[0], fy: p[0], cx: p[1], cy: p[2], distortion: [p[3], p[4], 0, 0])
            default: .init(width: w, height: h, fx: p[0], fy: p[1], cx: p[2], cy: p[3], distortion: [p[4], p[5], p[6], p[7]])
            }
            if let problem = cam.problem { throw bad("camera \(id): \(problem)") }
            out[id] = cam
        }
        return out
    }

    struct ImageEntry { var name: String; var cameraId: Int; var worldToCamera: Pose; var line: Int }

    /// Image entries of `images.txt`: each image is a line of pose data followed by a line
    /// of 2D points (which may be empty).
    static func readImages(_ url: URL) throws -> [ImageEntry] {
        let all = try lines(url)
        var out: [ImageEntry] = []
        var i = 0
        while i < all.count {
            let (n, line) = all[i]
            if line.isEmpty { i += 1; continue }   // stray blank line between entries
            let f = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
            guard f.count >= 10, Int(f[0]) != nil, let cam = Int(f[8]) else {
                throw DatasetImportError(url.lastPathComponent, line: n,
                                         "expected 'IMAGE_ID QW QX QY QZ TX TY TZ CAMERA_ID NAME'")
            }
            let v = f[1...7].compactMap(Double.init)
            guard v.count == 7, v.allSatisfy(\.isFinite) else {
                throw DatasetImportError(url.lastPathComponent, line: n, "pose values must be numbers")
            }
            let q = Quaternion(x: v[1], y: v[2], z: v[3], w: v[0])
            guard abs(q.norm - 1) < 1e-3 else {
                throw DatasetImportError(url.lastPathComponent, line: n, "qvec is not a unit quaternion (norm \(q.norm))")
            }
            let name = f[9...].joined(separator: " ")   // names may contain spaces
            out.append(ImageEntry(name: name, cameraId: cam,
                                  worldToCamera: Pose(rotation: q.normalized, translation: SIMD3(v[4], v[5], v[6])), line: n))
            i += 2   // skip the POINTS2D line
        }
        return out
    }

    /// Non-comment lines with their 1-based line numbers, trimmed (blank lines kept: the
    /// POINTS2D line of an image without points is blank).
    private static func lines(_ url: URL) throws -> [(Int, String)] {
        let text: String
        do { text = try RegularFile.text(url) } catch let e as RegularFileError {
            throw DatasetImportError(url.lastPathComponent, e.problem)
        }
        var rows = text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
            .map { ($0.offset + 1, $0.element.trimmingCharacters(in: .whitespacesAndNewlines)) }
            .filter { !$0.1.hasPrefix("#") }
        while rows.last?.1.isEmpty == true { rows.removeLast() }
        return rows
    }
}
