import Foundation
import Geometry

/// The cameras and registered images of a COLMAP text model (`cameras.txt`,
/// `images.txt`): what `arcloud map build --colmap` needs to rebuild a map from the
/// images with COLMAP's poses. COLMAP's 3D points are not read: the builder matches and
/// triangulates its own ORB features.
public struct COLMAPTextModel: Sendable, Hashable {
    public struct Image: Sendable, Hashable {
        public var id: Int
        /// The image file name, relative to the image folder.
        public var name: String
        /// `T_map_camera` (COLMAP stores the inverse, world-to-camera).
        public var pose: Pose
        public var intrinsics: CameraIntrinsics
    }

    /// Registered images, ordered by id.
    public var images: [Image]

    /// Why a COLMAP model could not be read; names the file and line.
    public struct ParseError: Error, Sendable, Hashable, CustomStringConvertible {
        public let file: String
        public let line: Int
        public let message: String
        public var description: String { "\(file):\(line): \(message)" }
    }

    /// Reads `cameras.txt` and `images.txt` from `directory`.
    public static func load(from directory: URL) throws -> COLMAPTextModel {
        let camerasURL = directory.appendingPathComponent("cameras.txt")
        let imagesURL = directory.appendingPathComponent("images.txt")
        let cameras = try parseCameras(try String(contentsOf: camerasURL, encoding: .utf8), file: camerasURL.path)
        return try parseImages(try String(contentsOf: imagesURL, encoding: .utf8), cameras: cameras, file: imagesURL.path)
    }

    /// Parses `cameras.txt`: `CAMERA_ID MODEL WIDTH HEIGHT PARAMS…`. Supports SIMPLE_PINHOLE,
    /// PINHOLE, SIMPLE_RADIAL, RADIAL and OPENCV (the models arcloud's intrinsics express).
    public static func parseCameras(_ text: String, file: String = "cameras.txt") throws -> [Int: CameraIntrinsics] {
        var out: [Int: CameraIntrinsics] = [:]
        for (n, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") { continue }
            let f = line.split(separator: " ").map(String.init)
            func fail(_ m: String) -> ParseError { ParseError(file: file, line: n + 1, message: m) }
            guard f.count >= 5, let id = Int(f[0]), let w = Int(f[2]), let h = Int(f[3]) else {
                throw fail("expected CAMERA_ID MODEL WIDTH HEIGHT PARAMS…")
            }
            let p = f.dropFirst(4).compactMap(Double.init)
            guard p.count == f.count - 4 else { throw fail("camera parameters must be numbers") }
            let k: CameraIntrinsics
            switch (f[1], p.count) {
            case ("SIMPLE_PINHOLE", 3): k = .init(width: w, height: h, fx: p[0], fy: p[0], cx: p[1], cy: p[2])
            case ("PINHOLE", 4): k = .init(width: w, height: h, fx: p[0], fy: p[1], cx: p[2], cy: p[3])
            case ("SIMPLE_RADIAL", 4):
                k = .init(width: w, height: h, fx: p[0], fy: p[0], cx: p[1], cy: p[2], distortion: [p[3], 0, 0, 0])
            case ("RADIAL", 5):
                k = .init(width: w, height: h, fx: p[0], fy: p[0], cx: p[1], cy: p[2], distortion: [p[3], p[4], 0, 0])
            case ("OPENCV", 8):
                k = .init(width: w, height: h, fx: p[0], fy: p[1], cx: p[2], cy: p[3], distortion: Array(p[4..<8]))
            default:
                throw fail("camera model \(f[1]) with \(p.count) parameters is not supported "
                           + "(SIMPLE_PINHOLE, PINHOLE, SIMPLE_RADIAL, RADIAL, OPENCV)")
            }
            if let problem = k.problem { throw fail("camera \(id): \(problem)") }
            out[id] = k
        }
        return out
    }

    /// Parses `images.txt`: per image a line `IMAGE_ID QW QX QY QZ TX TY TZ CAMERA_ID NAME`
    /// followed by its 2D-point line (possibly empty, ignored here).
    public static func parseImages(_ text: String, cameras: [Int: CameraIntrinsics],
                                   file: String = "images.txt") throws -> COLMAPTextModel {
        var images: [Image] = []
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var i = 0
        while i < lines.count {
            let n = i + 1
            let line = lines[i].trimmingCharacters(in: .whitespaces)
            i += 1
            if line.isEmpty || line.hasPrefix("#") { continue }
            let f = line.split(separator: " ", maxSplits: 9).map(String.init)
            let numbers = f.prefix(9).compactMap(Double.init)
            guard f.count == 10, numbers.count == 9, let id = Int(f[0]), let cam = Int(f[8]) else {
                throw ParseError(file: file, line: n, message: "expected IMAGE_ID QW QX QY QZ TX TY TZ CAMERA_ID NAME")
            }
            guard let k = cameras[cam] else {
                throw ParseError(file: file, line: n, message: "image \(id) uses unknown camera \(cam)")
            }
            let q = Quaternion(x: numbers[2], y: numbers[3], z: numbers[4], w: numbers[1])
            guard abs(q.norm - 1) < 1e-3 else {
                throw ParseError(file: file, line: n, message: "image \(id): quaternion is not unit length")
            }
            let cameraFromWorld = Pose(rotation: q.normalized, translation: SIMD3(numbers[5], numbers[6], numbers[7]))
            images.append(Image(id: id, name: f[9], pose: cameraFromWorld.inverse, intrinsics: k))
            i += 1  // the 2D-point line that follows every image line
        }
        return COLMAPTextModel(images: images.sorted { $0.id < $1.id })
    }
}
