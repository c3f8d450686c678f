import Foundation
import Formats

struct DatasetImportNerfstudioCommand: Command {
    static let name = "dataset import-nerfstudio"
    static let summary = "Import a nerfstudio / instant-ngp transforms.json capture as a recorded session"
    static let help = """
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
        building the map).

        OPTIONS:
          --skip-missing    Leave out frames whose image file is missing (default: an error
                            naming the frame and its file)
          --fps F           Frame rate for the made-up timestamps (default: 10)
          --name NAME       Session name (default: the output folder name)

        EXAMPLE:
          arcloud dataset import-nerfstudio polycam-export/transforms.json out/room
        """
    static let options: Set<String> = ["fps", "name"]
    static let switches: Set<String> = ["skip-missing"]

    static func run(_ args: Arguments) async throws -> Int32 {
        try args.noExtraPositionals(beyond: 2)
        let input = URL(fileURLWithPath: try args.positional(0, "transforms.json | folder"))
        let out = URL(fileURLWithPath: try args.positional(1, "out-dir"), isDirectory: true)
        var importer = NerfstudioImporter()
        importer.fps = try args.double("fps", default: 10)
        guard importer.fps > 0 else { throw UsageError("option '--fps' must be positive") }
        importer.skipMissing = args.has("skip-missing")
        try OutputLocation.prepareFolder(out.path, for: "<out-dir>")
        let result = try importer.importCapture(from: input, to: out, name: args.value("name") ?? out.lastPathComponent)
        for m in result.missing { FileHandle.standardError.write(Data("skipped \(m): image missing\n".utf8)) }
        print("\(out.path): \(result.session.frames.count) frames with poses"
              + (result.missing.isEmpty ? "" : ", \(result.missing.count) frames skipped (image missing)")
              + (result.intrinsicsSpread > 0 ? String(format: ", per-frame intrinsics within %.2f %% of the session's", result.intrinsicsSpread * 100) : ""))
        return 0
    }
}
