import Foundation
import Geometry
import Support
import VPSModel

/// Imports a nerfstudio / instant-ngp capture (`transforms.json` and its images, see
/// `NerfstudioTransforms`) as a recorded session with ground-truth poses.
///
/// Images keep their names (copied to `frames/<file_path>`), frame ids are their stems,
/// and frames are ordered by name, `1 / fps` seconds apart (the format records no time).
/// A JPEG's EXIF GPS becomes its frame's `gps` (`EXIFGPS.photoReading(at:)`).
/// A session has one camera: phone exports (Polycam, Record3D) give every frame its own
/// intrinsics, which differ by a fraction of a pixel; the session takes the per-parameter
/// median and the import fails, naming the frame, when a frame's focal length or
/// principal point is more than `maxIntrinsicsSpread` (relative) from it, or its size or
/// distortion differs. `map build --nerfstudio` keeps every frame's own intrinsics.
public struct NerfstudioImporter: Sendable {
    public var fps: Double = 10
    /// Leave out frames whose image file is missing instead of failing.
    public var skipMissing = false
    /// Largest relative difference of a frame's fx, fy, cx, cy from the session's camera.
    public var maxIntrinsicsSpread = 0.01

    public init() {}

    public struct Result: Sendable {
        public var session: RecordedSession
        /// Frames left out because their image is missing (with `skipMissing`).
        public var missing: [String]
        /// Largest relative difference of any frame's intrinsics from the session's camera.
        public var intrinsicsSpread: Double
        /// Frames given a GPS reading from their photo's EXIF.
        public var framesWithGPS: Int

        /// One line for `arcloud dataset import-nerfstudio`: frames, skipped ones, intrinsics spread, GPS.
        public var text: String {
            "\(session.frames.count) frames with poses"
                + (missing.isEmpty ? "" : ", \(missing.count) frames skipped (image missing)")
                + (intrinsicsSpread > 0 ? String(format: ", per-frame intrinsics within %.2f %% of the session's", intrinsicsSpread * 100) : "")
                + ", \(framesWithGPS) with EXIF GPS"
        }
    }

    @discardableResult
    public func importCapture(from path: URL, to output: URL, name: String) throws -> Result {
        let transforms = try NerfstudioTransforms.load(from: path, skipMissing: skipMissing)
        let ordered = transforms.frames.sorted { $0.filePath < $1.filePath }
        let camera = Self.median(ordered.map(\.intrinsics))
        var spread = 0.0
        for f in ordered {
            let k = f.intrinsics
            guard k.width == camera.width, k.height == camera.height, k.distortion.count == camera.distortion.count else {
                throw DatasetImportError(f.location, "image size or distortion differs from the other frames'; "
                                         + "a session has one camera (map build --nerfstudio reads mixed cameras)")
            }
            let s = zip([k.fx, k.fy, k.cx, k.cy], [camera.fx, camera.fy, camera.cx, camera.cy])
                .map { abs($0 - $1) / max(abs($1), 1) }.max() ?? 0
            let d = zip(k.distortion, camera.distortion).map { abs($0 - $1) }.max() ?? 0
            guard s <= maxIntrinsicsSpread, d <= 0.01 else {
                throw DatasetImportError(f.location, String(format: "intrinsics differ from the session's camera by %.1f %%; ", s * 100)
                                         + "a session has one camera (map build --nerfstudio reads mixed cameras)")
            }
            spread = max(spread, s)
            if let p = ImportedImages.sizeProblem(of: f.imageURL, camera: camera) { throw DatasetImportError(f.location, p) }
        }
        let names = ordered.map { ImportedImages.normalized($0.fileName) }
        let ids = ImportedImages.frameIds(names)
        var frames: [RecordedSession.Frame] = []
        for (i, f) in ordered.enumerated() {
            let image = try ImportedImages.copy(f.imageURL, as: names[i], into: output)
            frames.append(.init(id: ids[i], timestamp: (Double(i) / fps * 1e6).rounded() / 1e6, image: image, pose: f.pose,
                                gps: EXIFGPS.photoReading(at: f.imageURL)))
        }
        let session = RecordedSession(name: name, camera: camera, frames: frames)
        try session.write(toDirectory: output)
        return Result(session: session, missing: transforms.missing, intrinsicsSpread: spread,
                      framesWithGPS: frames.filter { $0.gps != nil }.count)
    }

    /// The per-parameter median of intrinsics of one size.
    static func median(_ all: [CameraIntrinsics]) -> CameraIntrinsics {
        func med(_ v: [Double]) -> Double { Statistics.median(v) ?? 0 }
        var k = all[0]
        k.fx = med(all.map(\.fx)); k.fy = med(all.map(\.fy)); k.cx = med(all.map(\.cx)); k.cy = med(all.map(\.cy))
        k.distortion = k.distortion.indices.map { i in med(all.compactMap { $0.distortion.count > i ? $0.distortion[i] : nil }) }
        return k
    }
}
