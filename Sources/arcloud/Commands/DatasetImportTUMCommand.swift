import Foundation
import Geometry
import Formats
import VPSModel

struct DatasetImportTUMCommand: Command {
    static let name = "dataset import-tum"
    static let summary = "Import a TUM RGB-D sequence as a recorded session"
    static let help = """
        USAGE: arcloud dataset import-tum <sequence-dir> <out-dir> (--camera fr1|fr2|fr3 | --fx F --fy F --cx C --cy C) [options]

        Reads <sequence-dir>/rgb.txt and groundtruth.txt, copies the colour images into
        <out-dir>/frames/ under their own names (frame id = file name without extension,
        in TUM the timestamp) and writes <out-dir>/session.json. Timestamps stay as
        recorded (Unix time), so `evo_ape tum <sequence>/groundtruth.txt
        <localize out>/trajectory.tum` associates every localized pose. Each image gets the ground-truth
        pose at its timestamp, interpolated between the two nearest ground-truth samples
        (when at most --max-gap apart), else the nearest within --max-difference, else none.
        The motion-capture world frame of TUM becomes the map frame as is.

        OPTIONS:
          --camera fr1|fr2|fr3   The published intrinsics of a TUM sensor (640x480)
          --fx, --fy, --cx, --cy Pinhole intrinsics in pixels (instead of --camera)
          --distortion LIST      k1,k2,p1,p2[,k3] (with --fx…)
          --size WxH             Image size (default: read from the first image)
          --name NAME            Session name (default: the sequence folder name)
          --max-gap S            Interpolate across ground-truth gaps up to S seconds (default: 0.05)
          --max-difference S     Nearest-sample tolerance in seconds (default: 0.02)
          --require-pose         Leave out images without a ground-truth pose

        EXAMPLE:
          arcloud dataset import-tum rgbd_dataset_freiburg1_xyz out/fr1-xyz --camera fr1
        """
    static let options: Set<String> = ["camera", "fx", "fy", "cx", "cy", "distortion", "size", "name",
                                       "max-gap", "max-difference"]
    static let switches: Set<String> = ["require-pose"]

    static func run(_ args: Arguments) async throws -> Int32 {
        try args.noExtraPositionals(beyond: 2)
        let sequence = URL(fileURLWithPath: try args.positional(0, "sequence-dir"), isDirectory: true)
        let out = URL(fileURLWithPath: try args.positional(1, "out-dir"), isDirectory: true)
        var camera: CameraIntrinsics
        if let preset = args.value("camera") {
            guard let c = TUMImporter.presets[preset] else {
                throw UsageError("option '--camera' must be one of fr1|fr2|fr3, got '\(preset)'")
            }
            if ["fx", "fy", "cx", "cy", "distortion"].contains(where: { args.value($0) != nil }) {
                throw UsageError("give either --camera or --fx/--fy/--cx/--cy, not both")
            }
            camera = c
        } else {
            let fx = try requireNumber(args, "fx"), fy = try requireNumber(args, "fy")
            let cx = try requireNumber(args, "cx"), cy = try requireNumber(args, "cy")
            var distortion: [Double] = []
            if let d = args.value("distortion") {
                distortion = d.split(separator: ",").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
                guard distortion.count == 4 || distortion.count == 5 else {
                    throw UsageError("option '--distortion' needs 4 or 5 comma-separated numbers, got '\(d)'")
                }
            }
            camera = CameraIntrinsics(width: 640, height: 480, fx: fx, fy: fy, cx: cx, cy: cy, distortion: distortion)
        }
        if let size = args.value("size") {
            let p = size.lowercased().split(separator: "x").compactMap { Int($0) }
            guard p.count == 2 else { throw UsageError("option '--size' needs WxH, got '\(size)'") }
            camera.width = p[0]; camera.height = p[1]
        } else if args.value("camera") == nil {
            // The size of the first listed image.
            if let first = try? TUMImporterSupport.firstImage(sequence), let header = ImageHeader.read(first) {
                camera.width = header.width; camera.height = header.height
            }
        }
        if let p = camera.problem { throw UsageError("camera: \(p)") }
        var importer = TUMImporter(camera: camera)
        importer.maxGap = try args.double("max-gap", default: 0.05)
        importer.maxDifference = try args.double("max-difference", default: 0.02)
        importer.requirePose = args.has("require-pose")
        let session: RecordedSession
        try OutputLocation.prepareFolder(out.path, for: "<out-dir>")
        do {
            session = try importer.importSequence(from: sequence, to: out, name: args.value("name") ?? sequence.lastPathComponent)
        } catch let e as DatasetImportError {
            throw CommandFailure(e.description)
        }
        let posed = session.frames.filter { $0.pose != nil }.count
        print("\(out.path): \(session.frames.count) frames, \(posed) with ground truth")
        return 0
    }

    private static func requireNumber(_ args: Arguments, _ name: String) throws -> Double {
        guard args.value(name) != nil else { throw UsageError("missing --camera or --\(name)") }
        return try args.double(name, default: 0)
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
