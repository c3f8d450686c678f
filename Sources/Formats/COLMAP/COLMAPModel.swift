import Foundation
import Geometry
import VPSModel

/// The cameras and registered images of a COLMAP sparse model, read from its text files
/// (`cameras.txt`, `images.txt`) or its binary files (`cameras.bin`, `images.bin`, what
/// COLMAP writes by default). The one reader behind `arcloud map build --colmap` and
/// `arcloud dataset import-colmap`.
///
/// 3D points (`points3D.*`) are not read and need not be there: arcloud matches and
/// triangulates its own ORB features from the images and COLMAP's poses.
public struct COLMAPModel: Sendable, Hashable {
    /// Which files the model was read from.
    public enum Format: String, Sendable, Hashable { case text, binary }

    /// One camera as COLMAP describes it: a model name and its parameters.
    public struct Camera: Sendable, Hashable {
        public var id: Int
        /// COLMAP's model name, e.g. `PINHOLE`, `OPENCV`, `OPENCV_FISHEYE`.
        public var model: String
        public var width: Int
        public var height: Int
        public var params: [Double]
        /// Where the camera was read, for errors: a file and, for text, its line.
        public var source: Location

        public init(id: Int, model: String, width: Int, height: Int, params: [Double], source: Location) {
            self.id = id; self.model = model; self.width = width; self.height = height
            self.params = params; self.source = source
        }

        /// arcloud's pinhole intrinsics for this camera; throws, naming the camera and the
        /// model, when the model cannot be expressed (fisheye and other non-pinhole models).
        public func intrinsics() throws -> CameraIntrinsics {
            do {
                return try COLMAPCameraModel.intrinsics(model: model, width: width, height: height, params: params)
            } catch let reason as COLMAPCameraModel.Unsupported {
                throw source.error("camera \(id): \(reason.message)")
            }
        }
    }

    /// One registered image.
    public struct Image: Sendable, Hashable {
        public var id: Int
        /// The image file, relative to the image folder (COLMAP writes `/` for subfolders).
        public var name: String
        public var cameraId: Int
        /// COLMAP's pose: world-to-camera (`qvec`, `tvec`).
        public var worldToCamera: Pose
        public var source: Location

        public init(id: Int, name: String, cameraId: Int, worldToCamera: Pose, source: Location) {
            self.id = id; self.name = name; self.cameraId = cameraId
            self.worldToCamera = worldToCamera; self.source = source
        }

        /// `T_map_camera`, the pose arcloud stores (the inverse of COLMAP's).
        public var pose: Pose { worldToCamera.inverse }

        /// The image's file in `folder`: a regular file inside it (symlinks resolved), else
        /// an error naming the model file, the line and what is wrong with the name.
        public func file(in folder: URL) throws -> URL {
            do { return try ContainedPath.regularFile(name, in: folder, source: source.description) } catch let e as ContainedPathError {
                throw source.error("image \(id): \(e.problem)")
            }
        }
    }

    /// A place in a model file: the file and the 1-based line (text) or record (binary).
    public struct Location: Sendable, Hashable, CustomStringConvertible {
        public var file: String
        public var line: Int?
        public var record: Int?
        public init(file: String, line: Int? = nil, record: Int? = nil) {
            self.file = file; self.line = line; self.record = record
        }
        public var description: String {
            line.map { "\(file):\($0)" } ?? record.map { "\(file), record \($0)" } ?? file
        }
        func error(_ message: String) -> DatasetImportError {
            DatasetImportError(file, line: line, record.map { "record \($0): \(message)" } ?? message)
        }
    }

    public var format: Format
    /// Cameras by id.
    public var cameras: [Int: Camera]
    /// Registered images, ordered by id.
    public var images: [Image]

    /// Checks what both readers must: unique camera ids, unique image ids and names, and
    /// that every image's camera is defined. Errors name the file and line of the second
    /// occurrence.
    public init(format: Format, cameras: [Camera], images: [Image]) throws {
        var byId: [Int: Camera] = [:]
        for c in cameras {
            if let first = byId[c.id] { throw c.source.error("camera id \(c.id) is defined twice (first at \(first.source))") }
            byId[c.id] = c
        }
        var ids: [Int: Location] = [:], names: [String: Location] = [:]
        for im in images {
            if let first = ids[im.id] { throw im.source.error("image id \(im.id) is listed twice (first at \(first))") }
            if let first = names[im.name] { throw im.source.error("image name '\(im.name)' is listed twice (first at \(first))") }
            guard byId[im.cameraId] != nil else {
                throw im.source.error("image \(im.id) uses camera \(im.cameraId), which the model's cameras file does not define")
            }
            ids[im.id] = im.source; names[im.name] = im.source
        }
        self.format = format
        self.cameras = byId
        self.images = images.sorted { $0.id < $1.id }
    }

    /// Reads the model in `directory`: the binary files when `cameras.bin` and
    /// `images.bin` are there (as COLMAP itself prefers), else the text files.
    public static func load(from directory: URL) throws -> COLMAPModel {
        let fm = FileManager.default
        let binary = ["cameras.bin", "images.bin"].allSatisfy { fm.fileExists(atPath: directory.appendingPathComponent($0).path) }
        if binary { return try COLMAPBinaryReader.read(directory: directory) }
        let text = ["cameras.txt", "images.txt"].allSatisfy { fm.fileExists(atPath: directory.appendingPathComponent($0).path) }
        guard text else {
            throw DatasetImportError(directory.path, "no COLMAP model here: expected cameras.bin and images.bin, "
                                     + "or cameras.txt and images.txt (a folder such as project/sparse/0)")
        }
        return try COLMAPTextReader.read(directory: directory)
    }

    /// The intrinsics of `image`'s camera.
    public func intrinsics(of image: Image) throws -> CameraIntrinsics {
        guard let camera = cameras[image.cameraId] else {
            throw image.source.error("image \(image.id) uses camera \(image.cameraId), which is not defined")
        }
        return try camera.intrinsics()
    }

    /// The image folder of a model in COLMAP's project layout: `project/sparse/0` (and
    /// `project/sparse`) → `project/images`. Other layouts: `<model>/../images`, else
    /// `<model>/images`, whichever exists (the first when neither does).
    public static func defaultImageFolder(for model: URL) -> URL {
        let model = model.standardizedFileURL
        let parent = model.deletingLastPathComponent()
        var candidates: [URL] = []
        if parent.lastPathComponent == "sparse" {
            candidates.append(parent.deletingLastPathComponent().appendingPathComponent("images", isDirectory: true))
        }
        if model.lastPathComponent == "sparse" || model.lastPathComponent == "sparse/" {
            candidates.append(parent.appendingPathComponent("images", isDirectory: true))
        }
        candidates.append(parent.appendingPathComponent("images", isDirectory: true))
        candidates.append(model.appendingPathComponent("images", isDirectory: true))
        var isDirectory: ObjCBool = false
        return candidates.first { FileManager.default.fileExists(atPath: $0.path, isDirectory: &isDirectory) && isDirectory.boolValue }
            ?? candidates[0]
    }

    /// The bytes of a model file (a FIFO or folder in its place is an error, not a hang).
    static func contents(of url: URL) throws -> Data {
        do { return try RegularFile.read(url) } catch let e as RegularFileError { throw DatasetImportError(e.path, e.problem) }
    }
}
