import Foundation
import Geometry
import VPSModel

/// Imports a COLMAP model (text or binary, read by `COLMAPModel`) and its images folder as
/// a recorded session with ground-truth poses.
///
/// COLMAP stores world-to-camera `qvec` (w, x, y, z) and `tvec`; the session stores
/// `T_map_camera`, the inverse. A session has one camera: images of the camera most used
/// (or `cameraId`) are imported, the rest skipped. Images keep their names (copied to
/// `frames/<COLMAP name>`) and frame ids are their stems (see `ImportedImages`). COLMAP has no timestamps: images are ordered by name,
/// `1 / fps` seconds apart. Every image must be stored at its camera's size. A JPEG's
/// EXIF GPS becomes its frame's `gps` (`EXIFGPS.photoReading(at:)`).
public struct COLMAPImporter: Sendable {
    public var fps: Double = 10
    public var cameraId: Int? = nil

    public init() {}

    /// What an import did.
    public struct Result: Sendable {
        public var session: RecordedSession
        /// Images skipped because they belong to another camera.
        public var skipped: Int
        /// Which files the model was read from.
        public var format: COLMAPModel.Format
        /// Frames given a GPS reading from their photo's EXIF.
        public var framesWithGPS: Int

        /// One line for `arcloud dataset import-colmap`: frames, model format, skipped images, GPS.
        public var text: String {
            "\(session.frames.count) frames with poses from a \(format.rawValue) model"
                + (skipped > 0 ? ", \(skipped) images of other cameras skipped" : "")
                + ", \(framesWithGPS) with EXIF GPS"
        }
    }

    /// Reads the model in `model` with images in `images`, and writes the session into
    /// `output` (images copied into `frames/`). Image names that leave `images` (`../`,
    /// absolute paths, symlinks out) or name no regular file are errors naming the image.
    @discardableResult
    public func importModel(from model: URL, images: URL, to output: URL, name: String) throws -> Result {
        let colmap = try COLMAPModel.load(from: model)
        guard let firstImage = colmap.images.first else {
            throw DatasetImportError(model.path, "the model has no registered images")
        }
        var uses: [Int: Int] = [:]
        for im in colmap.images { uses[im.cameraId, default: 0] += 1 }
        let chosen = cameraId ?? uses.max { $0.value != $1.value ? $0.value < $1.value : $0.key > $1.key }!.key
        guard let camera = colmap.cameras[chosen] else {
            throw DatasetImportError(firstImage.source.file, "camera \(chosen) is not in the model (cameras: "
                                     + colmap.cameras.keys.sorted().map(String.init).joined(separator: ", ") + ")")
        }
        let intrinsics = try camera.intrinsics()
        let selected = colmap.images.filter { $0.cameraId == chosen }.sorted { $0.name < $1.name }
        guard !selected.isEmpty else { throw DatasetImportError(camera.source.description, "no registered image uses camera \(chosen)") }
        let sources = try selected.map { try $0.file(in: images) }
        // Every image is checked before any is copied: a refused import leaves no frames behind.
        for (im, source) in zip(selected, sources) {
            if let p = ImportedImages.sizeProblem(of: source, camera: intrinsics) {
                throw im.source.error("image \(im.id) of camera \(chosen): \(p)")
            }
        }
        let names = selected.map { ImportedImages.normalized($0.name) }
        let ids = ImportedImages.frameIds(names)
        var frames: [RecordedSession.Frame] = []
        for (i, im) in selected.enumerated() {
            let image = try ImportedImages.copy(sources[i], as: names[i], into: output)
            frames.append(.init(id: ids[i], timestamp: (Double(i) / fps * 1e6).rounded() / 1e6, image: image, pose: im.pose,
                                gps: EXIFGPS.photoReading(at: sources[i])))
        }
        let session = RecordedSession(name: name, camera: intrinsics, frames: frames)
        try session.write(toDirectory: output)
        return Result(session: session, skipped: colmap.images.count - selected.count, format: colmap.format,
                      framesWithGPS: frames.filter { $0.gps != nil }.count)
    }
}
