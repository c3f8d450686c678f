import Evaluation
import Foundation
import Geometry
import Formats
import VPSModel

/// One split of a real-photo set laid out as `../shared/real/` does: `map/` and `query/`
/// COLMAP text models (images relative to `../images`), and `query_gt.tum`, the query
/// cameras' ground truth (`T_map_camera`) in `query/images.txt` order.
public struct RealPhotoSplit: Sendable {
    /// A registered image of the split: its name, `T_map_camera` and intrinsics.
    public struct Image: Sendable, Hashable {
        public var name: String
        public var pose: Pose
        public var intrinsics: CameraIntrinsics
    }

    /// The map images of the split.
    public struct Model: Sendable, Hashable {
        public var images: [Image]

        /// The images of `model` (read by `COLMAPModel`), in id order.
        init(_ model: COLMAPModel) throws {
            images = try model.images.map { Image(name: $0.name, pose: $0.pose, intrinsics: try model.intrinsics(of: $0)) }
        }
    }

    public var name: String
    public var map: Model
    public var queries: [Image]
    public var truth: [Pose]
    /// Where the images are.
    public var images: URL

    /// Where `bench real` looks when given no folder: `../shared/real` (the real-photo sets
    /// beside the clone) when it is there, else the photos shipped with the tests.
    public static var defaultRoot: String {
        FileManager.default.fileExists(atPath: "../shared/real") ? "../shared/real" : "Tests/Fixtures/real"
    }

    /// The split folders under each of `folders` in turn (see `folders(under:)`); a
    /// `BenchmarkFailure` naming them when there is none.
    public static func folders(under folders: [String]) throws -> [URL] {
        let splits = folders.flatMap { Self.folders(under: URL(fileURLWithPath: $0, isDirectory: true)) }
        guard !splits.isEmpty else {
            throw BenchmarkFailure("no split (a folder with map/ and query/) under \(folders.joined(separator: ", "))")
        }
        return splits
    }

    /// The folders of the splits under `folder`, in name order: `folder` itself when it is a
    /// split (holds `map/` and `query/`), else every split in it and in its subfolders (a scene
    /// holds `split-*/`; a root like `shared/real` holds scenes).
    public static func folders(under folder: URL) -> [URL] {
        let fm = FileManager.default
        func isDirectory(_ u: URL) -> Bool {
            var d: ObjCBool = false
            return fm.fileExists(atPath: u.path, isDirectory: &d) && d.boolValue
        }
        func isSplit(_ u: URL) -> Bool {
            isDirectory(u.appendingPathComponent("map")) && isDirectory(u.appendingPathComponent("query"))
        }
        func search(_ u: URL, depth: Int) -> [URL] {
            if isSplit(u) { return [u] }
            guard depth > 0, let children = try? fm.contentsOfDirectory(at: u, includingPropertiesForKeys: nil) else { return [] }
            return children.filter(isDirectory).sorted { $0.lastPathComponent < $1.lastPathComponent }
                .flatMap { search($0, depth: depth - 1) }
        }
        return search(folder.standardizedFileURL, depth: 2)
    }

    /// The scene the split belongs to: its parent folder's name.
    public var scene: String { images.deletingLastPathComponent().lastPathComponent }

    /// Reads the split in `directory`.
    public static func load(from folder: URL) throws -> RealPhotoSplit {
        let directory = folder.absoluteURL.standardizedFileURL
        let map = try Model(COLMAPModel.load(from: directory.appendingPathComponent("map", isDirectory: true)))
        let query = try Model(COLMAPModel.load(from: directory.appendingPathComponent("query", isDirectory: true)))
        let gtURL = directory.appendingPathComponent("query_gt.tum")
        let truth = try TUMImporter.readTrajectory(gtURL).map(\.1)
        guard truth.count == query.images.count else {
            throw DatasetImportError(gtURL.path, "\(truth.count) poses for \(query.images.count) query images")
        }
        return RealPhotoSplit(name: directory.lastPathComponent, map: map, queries: query.images, truth: truth,
                              images: directory.deletingLastPathComponent().appendingPathComponent("images", isDirectory: true))
    }

    /// The same split in another frame: every position x becomes `scale · rotation(x)` (map
    /// poses and ground truth alike), as another reconstruction of the same photos would
    /// give it (a COLMAP model: y down, arbitrary units). A pipeline free of units and of
    /// any assumed up direction gives the same statuses, and the same poses in that frame.
    public func reexpressed(rotation: Quaternion = .identity, scale: Double) -> RealPhotoSplit {
        func moved(_ p: Pose) -> Pose {
            Pose(rotation: rotation * p.rotation, translation: scale * rotation.rotate(p.translation))
        }
        var s = self
        for i in s.map.images.indices { s.map.images[i].pose = moved(s.map.images[i].pose) }
        for i in s.queries.indices { s.queries[i].pose = moved(s.queries[i].pose) }
        for i in s.truth.indices { s.truth[i] = moved(s.truth[i]) }
        return s
    }

    /// The scene scale the split's queries are scored against (`SceneScale` of the
    /// ground-truth query cameras).
    public var sceneScale: Double? { SceneScale.of(truth) }

    /// The file of a query or map image.
    public func url(of image: Image) -> URL { images.appendingPathComponent(image.name) }

    /// The map photos as map build frames, each with its EXIF GPS reading when it has one
    /// (as `map build --colmap` reads them): the map is then georeferenced.
    public func mapFrames() throws -> [MapBuildFrame] {
        try map.images.enumerated().map { i, im in
            let url = try ContainedPath.regularFile(im.name, in: images, source: "\(name)/map")
            return MapBuildFrame(name: im.name, timestamp: Double(i), pose: im.pose, intrinsics: im.intrinsics,
                                 imageURL: url, gps: EXIFGPS.photoReading(at: url))
        }
    }
}
