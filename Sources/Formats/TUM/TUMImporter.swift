import Foundation
import Geometry
import VPSModel

/// Imports a TUM RGB-D sequence (`rgb.txt`, `groundtruth.txt`, `rgb/` images) as a
/// recorded session.
///
/// Each colour image gets the ground-truth pose at its timestamp, interpolated between
/// the two nearest ground-truth samples (linear position, spherical rotation) when they
/// lie within `maxGap` seconds of each other and bracket it; otherwise the nearest sample
/// within `maxDifference`; otherwise no pose. TUM poses are the colour camera's optical
/// frame in the motion-capture world, which becomes the session's map frame as is.
public struct TUMImporter: Sendable {
    /// Published intrinsics of the TUM RGB-D cameras (fx fy cx cy, k1 k2 p1 p2 k3) at 640×480.
    public static let presets: [String: CameraIntrinsics] = [
        "fr1": CameraIntrinsics(width: 640, height: 480, fx: 517.3, fy: 516.5, cx: 318.6, cy: 255.3,
                                distortion: [0.2624, -0.9531, -0.0054, 0.0026, 1.1633]),
        "fr2": CameraIntrinsics(width: 640, height: 480, fx: 520.9, fy: 521.0, cx: 325.1, cy: 249.7,
                                distortion: [0.2312, -0.7849, -0.0033, -0.0001, 0.9172]),
        "fr3": CameraIntrinsics(width: 640, height: 480, fx: 535.4, fy: 539.2, cx: 320.1, cy: 247.6),
    ]

    public var camera: CameraIntrinsics
    /// Largest gap between two ground-truth samples to interpolate across (seconds).
    public var maxGap = 0.05
    /// Largest time difference to the nearest ground-truth sample when not interpolating.
    public var maxDifference = 0.02
    /// Keep only frames that received a pose.
    public var requirePose = false

    public init(camera: CameraIntrinsics) { self.camera = camera }

    /// Reads the sequence in `sequence` and writes the session into `output`. Images keep
    /// their names (copied to `frames/<file name>`; frame id = the file stem, which in TUM
    /// sequences is the timestamp) and timestamps stay as recorded, so the sequence's own
    /// `groundtruth.txt` associates with the poses `arcloud localize` writes.
    @discardableResult
    public func importSequence(from sequence: URL, to output: URL, name: String) throws -> RecordedSession {
        let rgbList = try Self.readList(sequence.appendingPathComponent("rgb.txt"), columns: 2)
        let gtFile = sequence.appendingPathComponent("groundtruth.txt")
        let groundTruth: [(Double, Pose)] = FileManager.default.fileExists(atPath: gtFile.path)
            ? try Self.readTrajectory(gtFile) : []
        guard !rgbList.isEmpty else { throw DatasetImportError("rgb.txt", "lists no images") }
        let fm = FileManager.default
        try fm.createDirectory(at: output.appendingPathComponent("frames"), withIntermediateDirectories: true)
        var frames: [RecordedSession.Frame] = []
        var seen: [String: Int] = [:]
        for entry in rgbList {
            let pose = Self.pose(at: entry.time, in: groundTruth, maxGap: maxGap, maxDifference: maxDifference)
            if requirePose && pose == nil { continue }
            let source: URL
            do {
                source = try ContainedPath.regularFile(entry.fields[0], in: sequence, source: "rgb.txt")
            } catch let e as ContainedPathError {
                throw DatasetImportError("rgb.txt", line: entry.line, e.problem)
            }
            let file = URL(fileURLWithPath: entry.fields[0]).lastPathComponent
            if let p = ImportedImages.sizeProblem(of: source, camera: camera) {
                throw DatasetImportError("rgb.txt", line: entry.line, p)
            }
            if let first = seen[file] {
                throw DatasetImportError("rgb.txt", line: entry.line, "image name '\(file)' is listed twice (first on line \(first))")
            }
            seen[file] = entry.line
            let image = "frames/\(file)"
            let target = output.appendingPathComponent(image)
            if fm.fileExists(atPath: target.path) { try fm.removeItem(at: target) }
            try fm.copyItem(at: source, to: target)
            frames.append(.init(id: URL(fileURLWithPath: file).deletingPathExtension().lastPathComponent,
                                timestamp: entry.time, image: image, pose: pose))
        }
        let session = RecordedSession(name: name, camera: camera, frames: frames)
        try session.write(toDirectory: output)
        return session
    }

    /// Ground truth at `t`: interpolated between bracketing samples, or the nearest one.
    static func pose(at t: Double, in gt: [(Double, Pose)], maxGap: Double, maxDifference: Double) -> Pose? {
        guard !gt.isEmpty else { return nil }
        var lo = 0, hi = gt.count - 1
        if t <= gt[0].0 { return abs(gt[0].0 - t) <= maxDifference ? gt[0].1 : nil }
        if t >= gt[hi].0 { return abs(gt[hi].0 - t) <= maxDifference ? gt[hi].1 : nil }
        while hi - lo > 1 {
            let mid = (lo + hi) / 2
            if gt[mid].0 <= t { lo = mid } else { hi = mid }
        }
        let (ta, a) = gt[lo], (tb, b) = gt[hi]
        if tb - ta <= maxGap {
            let f = (t - ta) / max(1e-12, tb - ta)
            return Pose(rotation: slerp(a.rotation, b.rotation, f), translation: a.translation + (b.translation - a.translation) * f)
        }
        let nearest = t - ta < tb - t ? (ta, a) : (tb, b)
        return abs(nearest.0 - t) <= maxDifference ? nearest.1 : nil
    }

    static func slerp(_ a: Quaternion, _ b0: Quaternion, _ f: Double) -> Quaternion {
        var b = b0
        var d = a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w
        if d < 0 { b = Quaternion(x: -b.x, y: -b.y, z: -b.z, w: -b.w); d = -d }
        if d > 0.9995 {
            return Quaternion(x: a.x + (b.x - a.x) * f, y: a.y + (b.y - a.y) * f, z: a.z + (b.z - a.z) * f,
                              w: a.w + (b.w - a.w) * f).normalized
        }
        let theta = acos(d), s = sin(theta)
        let wa = sin((1 - f) * theta) / s, wb = sin(f * theta) / s
        return Quaternion(x: wa * a.x + wb * b.x, y: wa * a.y + wb * b.y, z: wa * a.z + wb * b.z, w: wa * a.w + wb * b.w).normalized
    }

    struct ListEntry { var time: Double; var fields: [String]; var line: Int }

    /// Lines `timestamp field…` (comments and blank lines skipped), sorted by time.
    static func readList(_ url: URL, columns: Int) throws -> [ListEntry] {
        let text: String
        do { text = try RegularFile.text(url) } catch let e as RegularFileError {
            throw DatasetImportError(url.lastPathComponent, e.problem)
        }
        var out: [ListEntry] = []
        // CRLF is one Character in Swift: split on it too.
        for (n, raw) in text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }).enumerated() {
            let line = raw.trimmingCharacters(in: .whitespacesAndNewlines)
            if line.isEmpty || line.hasPrefix("#") { continue }
            let f = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
            guard f.count >= columns, let t = Double(f[0]), t.isFinite else {
                throw DatasetImportError(url.lastPathComponent, line: n + 1, "expected 'timestamp' and \(columns - 1) more field(s)")
            }
            out.append(ListEntry(time: t, fields: Array(f.dropFirst()), line: n + 1))
        }
        return out.sorted { $0.time < $1.time }
    }

    /// A TUM trajectory file (`timestamp tx ty tz qx qy qz qw` per line), sorted by time.
    public static func readTrajectory(_ url: URL) throws -> [(Double, Pose)] {
        let entries = try readList(url, columns: 8)
        return try entries.map { e in
            let line = ([String(e.time)] + e.fields.prefix(7)).joined(separator: " ")
            guard let parsed = Pose.parseTUM(Substring(line)) else {
                throw DatasetImportError(url.lastPathComponent, line: e.line, "expected 'timestamp tx ty tz qx qy qz qw' with a unit quaternion")
            }
            return (parsed.timestamp, parsed.pose)
        }
    }
}
