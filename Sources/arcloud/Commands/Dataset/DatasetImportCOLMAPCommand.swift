import Foundation
import Formats
import VPSModel

struct DatasetImportCOLMAPCommand: Command {
    static let name = "dataset import-colmap"
    static let summary = "Import a COLMAP model (binary or text) and its images as a recorded session"
    static let overview = """
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
        folder (../, absolute, symlinks out) are errors. A JPEG's EXIF GPS becomes its
        frame's gps reading (accuracy 15 m at 95 % when the photo states none).
        """

    static let epilogue = """
        EXAMPLE:
          arcloud dataset import-colmap project/sparse/0 out/project
        """

    struct Options: CommandArguments {
        let model = Positional("model-dir")
        let out = Positional("out-dir")
        let images = Option("images", .text.placeholder("DIR"), help: "Folder the image names are relative to",
                            defaultText: "project/images for project/sparse/0, else <model-dir>/../images")
        let cameraId = Option("camera-id", ValueParser<Int>.integer().placeholder("N"),
                              help: "Import the images of this camera")
        let fps = Option("fps", .number(greaterThan: 0).placeholder("F"), default: 10,
                         help: "Frame rate for the made-up timestamps")
        let name = Option("name", .text.placeholder("NAME"), help: "Session name", defaultText: "the output folder name")
    }

    static func run(_ args: ParsedArguments<Options>) async throws -> Int32 {
        let model = URL(fileURLWithPath: args.model, isDirectory: true)
        let out = URL(fileURLWithPath: args.out, isDirectory: true)
        let images = args.images.map { URL(fileURLWithPath: $0, isDirectory: true) }
            ?? COLMAPModel.defaultImageFolder(for: model)
        var importer = COLMAPImporter()
        importer.fps = args.fps
        if let camera = args.cameraId { importer.cameraId = camera }
        try OutputLocation.prepareFolder(out.path, for: "<out-dir>")
        let result: COLMAPImporter.Result
        do {
            result = try importer.importModel(from: model, images: images, to: out, name: args.name ?? out.lastPathComponent)
        } catch let e as DatasetImportError {
            throw CommandFailure(e.description)
        }
        print("\(out.path): \(result.text)")
        return 0
    }
}
