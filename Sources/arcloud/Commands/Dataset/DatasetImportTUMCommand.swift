import Foundation
import Geometry
import Formats
import VPSModel

struct DatasetImportTUMCommand: Command {
    static let name = "dataset import-tum"
    static let summary = "Import a TUM RGB-D sequence as a recorded session"
    static let overview = """
        USAGE: arcloud dataset import-tum <sequence-dir> <out-dir> (--camera fr1|fr2|fr3 | --fx F --fy F --cx C --cy C) [options]

        Reads <sequence-dir>/rgb.txt and groundtruth.txt, copies the colour images into
        <out-dir>/frames/ under their own names (frame id = file name without extension,
        in TUM the timestamp) and writes <out-dir>/session.json. Timestamps stay as
        recorded (Unix time), so `evo_ape tum <sequence>/groundtruth.txt
        <localize out>/trajectory.tum` associates every localized pose. Each image gets the ground-truth
        pose at its timestamp, interpolated between the two nearest ground-truth samples
        (when at most --max-gap apart), else the nearest within --max-difference, else none.
        The motion-capture world frame of TUM becomes the map frame as is.
        """

    static let epilogue = """
        EXAMPLE:
          arcloud dataset import-tum rgbd_dataset_freiburg1_xyz out/fr1-xyz --camera fr1
        """

    struct Options: CommandArguments {
        let sequence = Positional("sequence-dir")
        let out = Positional("out-dir")
        let camera = Option("camera", .oneOf(TUMImporter.presets.keys.sorted()),
                            help: "The published intrinsics of a TUM sensor (640x480)")
        let fx = Option("fx", .number().placeholder("F"), help: "Focal length along x in pixels (instead of --camera)")
        let fy = Option("fy", .number().placeholder("F"), help: "Focal length along y in pixels (instead of --camera)")
        let cx = Option("cx", .number().placeholder("C"), help: "Principal point's x in pixels (instead of --camera)")
        let cy = Option("cy", .number().placeholder("C"), help: "Principal point's y in pixels (instead of --camera)")
        let distortion = Option("distortion", distortionParser, help: "k1,k2,p1,p2[,k3] (with --fx…)")
        let size = Option("size", .imageSize(), help: "Image size", defaultText: "read from the first image")
        let name = Option("name", .text.placeholder("NAME"), help: "Session name", defaultText: "the sequence folder name")
        let maxGap = Option("max-gap", .number().placeholder("S"), default: 0.05,
                            help: "Interpolate across ground-truth gaps up to S seconds")
        let maxDifference = Option("max-difference", .number().placeholder("S"), default: 0.02,
                                   help: "Nearest-sample tolerance in seconds")
        let requirePose = Flag("require-pose", help: "Leave out images without a ground-truth pose")
    }

    /// `--distortion k1,k2,p1,p2[,k3]`.
    static let distortionParser = ValueParser<[Double]>(placeholder: "LIST") { text in
        let numbers = text.split(separator: ",").map { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard numbers.count == 4 || numbers.count == 5, !numbers.contains(nil) else {
            throw InvalidValue("needs 4 or 5 comma-separated numbers")
        }
        return numbers.compactMap { $0 }
    }

    static func run(_ args: ParsedArguments<Options>) async throws -> Int32 {
        let sequence = URL(fileURLWithPath: args.sequence, isDirectory: true)
        let out = URL(fileURLWithPath: args.out, isDirectory: true)
        var camera: CameraIntrinsics
        let pinhole = [("fx", args.fx), ("fy", args.fy), ("cx", args.cx), ("cy", args.cy)]
        if let preset = args.camera {
            if pinhole.contains(where: { $0.1 != nil }) || args.distortion != nil {
                throw UsageError("give either --camera or --fx/--fy/--cx/--cy, not both")
            }
            camera = TUMImporter.presets[preset]!  // the parser took `preset` from these keys
        } else {
            let f = try pinhole.map { name, value in
                guard let value else { throw UsageError("missing --camera or --\(name)") }
                return value
            }
            camera = CameraIntrinsics(width: 640, height: 480, fx: f[0], fy: f[1], cx: f[2], cy: f[3],
                                      distortion: args.distortion ?? [])
        }
        if let size = args.size {
            camera.width = size.width; camera.height = size.height
        } else if args.camera == nil {
            // The size of the first listed image.
            if let first = try? TUMImporterSupport.firstImage(sequence), let header = ImageHeader.read(first) {
                camera.width = header.width; camera.height = header.height
            }
        }
        if let p = camera.problem { throw UsageError("camera: \(p)") }
        var importer = TUMImporter(camera: camera)
        importer.maxGap = args.maxGap
        importer.maxDifference = args.maxDifference
        importer.requirePose = args.requirePose
        let session: RecordedSession
        try OutputLocation.prepareFolder(out.path, for: "<out-dir>")
        do {
            session = try importer.importSequence(from: sequence, to: out, name: args.name ?? sequence.lastPathComponent)
        } catch let e as DatasetImportError {
            throw CommandFailure(e.description)
        }
        let posed = session.frames.filter { $0.pose != nil }.count
        print("\(out.path): \(session.frames.count) frames, \(posed) with ground truth")
        return 0
    }
}

enum TUMImporterSupport {
    static func firstImage(_ sequence: URL) throws -> URL? {
        let text = try RegularFile.text(sequence.appendingPathComponent("rgb.txt"))
        for line in text.split(whereSeparator: \.isNewline) where !line.hasPrefix("#") {
            let f = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            if f.count >= 2 { return try ContainedPath.regularFile(String(f[1]), in: sequence, source: "rgb.txt") }
        }
        return nil
    }
}
