import Foundation
import Formats
import VPSModel

struct DatasetImportNerfstudioCommand: Command {
    static let name = "dataset import-nerfstudio"
    static let summary = "Import a nerfstudio / instant-ngp transforms.json capture as a recorded session"
    static let overview = """
        USAGE: arcloud dataset import-nerfstudio <transforms.json | folder> <out-dir> [options]

        Reads a nerfstudio / instant-ngp transforms.json (what Polycam, Record3D, KIRI and
        ns-process-data write) and its images, copies the images into <out-dir>/frames/
        under their own names (frame id = file name without its extension) and writes
        <out-dir>/session.json. Poses: each frame's transform_matrix (camera-to-world,
        OpenGL camera axes) becomes T_map_camera with OpenCV axes (y and z flipped).
        Intrinsics: fl_x fl_y cx cy w h and k1 k2 p1 p2 [k3], per frame or at the top level;
        camera_angle_x when that is all there is; w and h from the image when absent. A
        session has one camera: per-frame intrinsics (phone exports) are merged into their
        median, and a frame more than 1 % away is an error naming it. Fisheye models are
        refused. Frames are ordered by file name, 1/--fps apart (the format has no time).
        Units and up: the capture's own (unknown to arcloud unless you say so when
        building the map). A JPEG's EXIF GPS becomes its frame's gps reading (accuracy
        15 m at 95 % when the photo states none).
        """

    static let epilogue = """
        EXAMPLE:
          arcloud dataset import-nerfstudio polycam-export/transforms.json out/room
        """

    struct Options: CommandArguments {
        let input = Positional("transforms.json | folder")
        let out = Positional("out-dir")
        let skipMissing = Flag("skip-missing", help: "Leave out frames whose image file is missing (default: an error "
                                   + "naming the frame and its file)")
        let fps = Option("fps", .number(greaterThan: 0).placeholder("F"), default: 10,
                         help: "Frame rate for the made-up timestamps")
        let name = Option("name", .text.placeholder("NAME"), help: "Session name", defaultText: "the output folder name")
    }

    static func run(_ args: ParsedArguments<Options>) async throws -> Int32 {
        let input = URL(fileURLWithPath: args.input)
        let out = URL(fileURLWithPath: args.out, isDirectory: true)
        var importer = NerfstudioImporter()
        importer.fps = args.fps
        importer.skipMissing = args.skipMissing
        try OutputLocation.prepareFolder(out.path, for: "<out-dir>")
        let result = try importer.importCapture(from: input, to: out, name: args.name ?? out.lastPathComponent)
        for m in result.missing { FileHandle.standardError.write(Data("skipped \(m): image missing\n".utf8)) }
        print("\(out.path): \(result.text)")
        return 0
    }
}
