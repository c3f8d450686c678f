import Foundation
import Geometry
import VPSModel

/// A nerfstudio / instant-ngp `transforms.json`: what Polycam, Record3D, KIRI and
/// `ns-process-data` write for a phone capture.
///
/// Each frame has a `file_path` (relative to the file's folder) and a `transform_matrix`,
/// camera-to-world with OpenGL camera axes (x right, y up, z backwards); arcloud's poses
/// use OpenCV camera axes (y down, z forwards), so the matrix's y and z columns are
/// negated. Intrinsics — `fl_x fl_y cx cy w h` and distortion `k1 k2 p1 p2 [k3]` — are
/// read per frame where given, else from the top level; with only `camera_angle_x` (the
/// original NeRF scenes) the focal length is `w / 2 / tan(camera_angle_x / 2)`. Fisheye
/// and equirectangular camera models are refused by name.
public struct NerfstudioTransforms: Sendable, Hashable {
    public struct Frame: Sendable, Hashable {
        /// `file_path` as written.
        public var filePath: String
        /// The image file, resolved inside the transforms file's folder.
        public var imageURL: URL
        /// `T_world_camera` with OpenCV camera axes.
        public var pose: Pose
        public var intrinsics: CameraIntrinsics
        /// Where the frame is, for messages: `transforms.json: frames[3]`.
        public var location: String

        /// `filePath` with the extension of the file found when it had none (`train/r_0`
        /// → `train/r_0.png`).
        public var fileName: String {
            (filePath as NSString).pathExtension.isEmpty ? filePath + "." + imageURL.pathExtension : filePath
        }
    }

    /// Frames in the order the file lists them.
    public var frames: [Frame]
    /// Frames whose image file does not exist (only with `skipMissing`): their locations.
    public var missing: [String]
    /// The transforms file read.
    public var file: URL

    /// Reads `path`: a `transforms.json` file, or a folder holding one.
    ///
    /// - Parameter skipMissing: leave out frames whose image file does not exist (they are
    ///   listed in `missing`) instead of failing on the first, naming it.
    public static func load(from path: URL, skipMissing: Bool = false) throws -> NerfstudioTransforms {
        var isDirectory: ObjCBool = false
        let exists = FileManager.default.fileExists(atPath: path.path, isDirectory: &isDirectory)
        let file = exists && isDirectory.boolValue ? path.appendingPathComponent("transforms.json") : path
        let name = file.lastPathComponent
        let data: Data
        do { data = try RegularFile.read(file) } catch let e as RegularFileError {
            throw DatasetImportError(e.path, e.problem + " (expected a nerfstudio transforms.json or a folder holding one)")
        }
        let json: Any
        do { json = try JSONSerialization.jsonObject(with: data) } catch {
            throw DatasetImportError(name, "is not JSON (\(error.localizedDescription))")
        }
        guard let root = json as? [String: Any] else { throw DatasetImportError(name, "expected a JSON object at the top level") }
        if let model = root["camera_model"] as? String, !["OPENCV", "PINHOLE", "SIMPLE_PINHOLE"].contains(model.uppercased()) {
            throw DatasetImportError(name, "camera_model \(model) is not supported: arcloud reads pinhole cameras "
                                     + "(OPENCV, k1 k2 p1 p2 distortion); undistort fisheye or equirectangular captures first")
        }
        guard let list = root["frames"] as? [Any] else { throw DatasetImportError(name, "frames: expected a list of frames") }
        guard !list.isEmpty else { throw DatasetImportError(name, "frames: the list is empty") }
        let folder = file.deletingLastPathComponent()
        var frames: [Frame] = [], missing: [String] = []
        for (i, item) in list.enumerated() {
            let at = "frames[\(i)]"
            guard let f = item as? [String: Any] else { throw DatasetImportError(name, "\(at): expected an object") }
            guard let filePath = f["file_path"] as? String, !filePath.isEmpty else {
                throw DatasetImportError(name, "\(at).file_path: expected the image's path")
            }
            let pose = try cameraPose(f["transform_matrix"], at: "\(name): \(at).transform_matrix")
            let imageURL: URL
            do {
                imageURL = try resolve(filePath, in: folder, source: "\(name) \(at)")
            } catch let e as ContainedPathError {
                if skipMissing, e.reason == .missing { missing.append("\(at) '\(filePath)'"); continue }
                throw DatasetImportError(name, "\(at).file_path: \(e.problem)"
                                         + (e.reason == .missing ? " (--skip-missing leaves such frames out)" : ""))
            }
            let intrinsics = try Intrinsics(frame: f, root: root, at: "\(name): \(at)").resolved(image: imageURL)
            frames.append(Frame(filePath: filePath, imageURL: imageURL, pose: pose, intrinsics: intrinsics,
                                location: "\(name): \(at)"))
        }
        guard !frames.isEmpty else { throw DatasetImportError(name, "none of the \(list.count) frames' images exists") }
        return NerfstudioTransforms(frames: frames, missing: missing, file: file)
    }

    /// The image of `filePath`: as written, or — for the original NeRF scenes, whose paths
    /// have no extension (`./train/r_0`) — with `.png` or `.jpg` added.
    static func resolve(_ filePath: String, in folder: URL, source: String) throws -> URL {
        do {
            return try ContainedPath.regularFile(filePath, in: folder, source: source)
        } catch let e as ContainedPathError where e.reason == .missing && URL(fileURLWithPath: filePath).pathExtension.isEmpty {
            for ext in ["png", "jpg", "jpeg"] {
                if let url = try? ContainedPath.regularFile(filePath + "." + ext, in: folder, source: source) { return url }
            }
            throw e
        }
    }

    /// `transform_matrix` (4×4 or 3×4, camera-to-world, OpenGL axes) as `T_world_camera`
    /// with OpenCV axes.
    static func cameraPose(_ value: Any?, at: String) throws -> Pose {
        guard let rows = value as? [[Any]], rows.count == 4 || rows.count == 3, rows.allSatisfy({ $0.count == 4 }) else {
            throw DatasetImportError(at, "expected a 4x4 matrix (list of 4 rows of 4 numbers)")
        }
        let m = try rows.prefix(3).map { try $0.map { v -> Double in
            guard let d = (v as? NSNumber)?.doubleValue, d.isFinite else {
                throw DatasetImportError(at, "expected finite numbers, found \(v)")
            }
            return d
        } }
        // OpenGL → OpenCV camera axes: negate the y and z columns of the rotation.
        let r = Matrix3(rows: SIMD3(m[0][0], -m[0][1], -m[0][2]), SIMD3(m[1][0], -m[1][1], -m[1][2]),
                        SIMD3(m[2][0], -m[2][1], -m[2][2]))
        let shouldBeIdentity = r.transposed * r
        let deviation = zip(shouldBeIdentity.rowMajor, Matrix3.identity.rowMajor).map { abs($0 - $1) }.max() ?? 0
        guard deviation < 1e-3, r.determinant > 0 else {
            throw DatasetImportError(at, "the rotation part is not a rotation (scaled or mirrored by \(String(format: "%.3g", deviation)))")
        }
        return Pose(rotationMatrix: r, translation: SIMD3(m[0][3], m[1][3], m[2][3]))
    }

    /// The intrinsics keys of a frame, falling back to the top level.
    struct Intrinsics {
        var values: [String: Double] = [:]
        var at: String

        static let keys = ["fl_x", "fl_y", "cx", "cy", "w", "h", "k1", "k2", "k3", "k4", "p1", "p2", "camera_angle_x", "camera_angle_y"]

        init(frame: [String: Any], root: [String: Any], at: String) throws {
            self.at = at
            for key in Self.keys {
                guard let v = frame[key] ?? root[key] else { continue }
                guard let d = (v as? NSNumber)?.doubleValue, d.isFinite else {
                    throw DatasetImportError(at, "\(key): expected a finite number, found \(v)")
                }
                values[key] = d
            }
        }

        func resolved(image: URL) throws -> CameraIntrinsics {
            var w = values["w"], h = values["h"]
            if w == nil || h == nil, let header = ImageHeader.read(image) {
                w = w ?? Double(header.width); h = h ?? Double(header.height)
            }
            guard let w, let h, w >= 1, h >= 1, w == w.rounded(), h == h.rounded() else {
                throw DatasetImportError(at, "w, h: the image size is not given and cannot be read from the image")
            }
            var fx = values["fl_x"], fy = values["fl_y"]
            if fx == nil, let angle = values["camera_angle_x"] {
                guard angle > 0, angle < .pi else { throw DatasetImportError(at, "camera_angle_x \(angle) is not an angle in (0, π)") }
                fx = w / 2 / tan(angle / 2)
            }
            if fy == nil, let angle = values["camera_angle_y"], angle > 0, angle < .pi { fy = h / 2 / tan(angle / 2) }
            guard let fx else { throw DatasetImportError(at, "no focal length: give fl_x (and fl_y), or camera_angle_x") }
            var distortion: [Double] = []
            let k1 = values["k1"] ?? 0, k2 = values["k2"] ?? 0, p1 = values["p1"] ?? 0, p2 = values["p2"] ?? 0
            if (values["k4"] ?? 0) != 0 {
                throw DatasetImportError(at, "k4 is a fisheye coefficient: arcloud reads pinhole cameras with k1 k2 p1 p2 [k3]")
            }
            if let k3 = values["k3"], k3 != 0 { distortion = [k1, k2, p1, p2, k3] }
            else if [k1, k2, p1, p2].contains(where: { $0 != 0 }) { distortion = [k1, k2, p1, p2] }
            let k = CameraIntrinsics(width: Int(w), height: Int(h), fx: fx, fy: fy ?? fx,
                                     cx: values["cx"] ?? w / 2, cy: values["cy"] ?? h / 2, distortion: distortion)
            if let problem = k.problem { throw DatasetImportError(at, "camera: \(problem)") }
            return k
        }
    }
}
