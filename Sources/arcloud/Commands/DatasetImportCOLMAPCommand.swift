import Foundation
import Formats
import VPSModel

struct DatasetImportCOLMAPCommand: Command {
    static let name = "dataset import-colmap"
    static let summary = "Import a COLMAP model (binary or text) and its images as a recorded session"
    static let help = """
        USAGE: arcloud dataset import-colmap <model-dir> <out-dir> [--images DIR] [options]

        Reads the COLMAP model in <model-dir>: cameras.bin and images.bin (COLMAP's default
        output) or cameras.txt and images.txt; points3D is not needed. Copies the images
        into <out-dir>/frames/ under their own names (frame id = file name without its
        extension) and writes <out-dir>/session.json with each image's pose converted from
        COLMAP's world-to-camera (qvec, tvec) to T_map_camera. Camera models:
        SIMPLE_PINHOLE, PINHOLE, SIMPLE_RADIAL, RADIAL, OPENCV (fisheye models: undistort
        with colmap image_undistorter first). A session has one camera: images of the most
        used camera (or --camera-id) are imported. Images are ordered by name and given
        timestamps 1/--fps apart (COLMAP records no time). Image names that leave the image
        folder (../, absolute, symlinks out) are errors.

        OPTIONS:
          --images DIR      Folder the image names are relative to (default: project/images
                            for project/sparse/0, else <model-dir>/../images)
          --camera-id N     Import the images of this camera
          --fps F           Frame rate for the made-up timestamps (default: 10)
          --name NAME       Session name (default: the output folder name)

        EXAMPLE:
          arcloud dataset import-colmap project/sparse/0 out/project
        """
    static let options: Set<String> = ["images", "camera-id", "fps", "name"]
    static let switches: Set<String> = []

    static func run(_ args: Arguments) async throws -> Int32 {
        try args.noExtraPositionals(beyond: 2)
        let model = URL(fileURLWithPath: try args.positional(0, "model-dir"), isDirectory: true)
        let out = URL(fileURLWithPath: try args.positional(1, "out-dir"), isDirectory: true)
        let images = args.value("images").map { URL(fileURLWithPath: $0, isDirectory: true) }
            ?? COLMAPModel.defaultImageFolder(for: model)
        var importer = COLMAPImporter()
        importer.fps = try args.double("fps", default: 10)
        guard importer.fps > 0 else { throw UsageError("option '--fps' must be positive") }
        if args.value("camera-id") != nil { importer.cameraId = try args.int("camera-id", default: 0) }
        try OutputLocation.prepareFolder(out.path, for: "<out-dir>")
        let result: COLMAPImporter.Result
        do {
            result = try importer.importModel(from: model, images: images, to: out, name: args.value("name") ?? out.lastPathComponent)
        } catch let e as DatasetImportError {
            throw CommandFailure(e.description)
        }
        print("\(out.path): \(result.session.frames.count) frames with poses from a \(result.format.rawValue) model"
              + (result.skipped > 0 ? ", \(result.skipped) images of other cameras skipped" : ""))
        return 0
    }
}
