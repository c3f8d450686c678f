import Foundation
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
        var importer: TUMImporter
        do {
            importer = TUMImporter(camera: try TUMImporter.camera(
                preset: args.camera, fx: args.fx, fy: args.fy, cx: args.cx, cy: args.cy, distortion: args.distortion,
                size: args.size.map { ($0.width, $0.height) }, sequence: sequence))
        } catch { throw UsageError(error.description) }
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
