import Foundation
import Geometry
import VPSModel

extension TUMImporter {
    /// The camera options of `dataset import-tum` that cannot go together, or are missing:
    /// a usage mistake, the whole message naming the options.
    public struct CameraConflict: Error, Sendable, CustomStringConvertible {
        public let description: String
    }

    /// The sequence's camera: a published preset (`presets`, 640x480), or the pinhole
    /// `fx fy cx cy` in pixels with `distortion` (k1,k2,p1,p2[,k3]); `size` replaces its
    /// size, else a pinhole camera takes the size of the first image `rgb.txt` lists in
    /// `sequence` (640x480 when it cannot be read). Throws `CameraConflict` for a preset
    /// given with pinhole values, a missing pinhole value, or a camera that is not valid.
    public static func camera(preset: String?, fx: Double?, fy: Double?, cx: Double?, cy: Double?, distortion: [Double]?,
                              size: (width: Int, height: Int)?, sequence: URL) throws(CameraConflict) -> CameraIntrinsics {
        var camera: CameraIntrinsics
        let pinhole = [("fx", fx), ("fy", fy), ("cx", cx), ("cy", cy)]
        if let preset, let known = presets[preset] {
            if pinhole.contains(where: { $0.1 != nil }) || distortion != nil {
                throw CameraConflict(description: "give either --camera or --fx/--fy/--cx/--cy, not both")
            }
            camera = known
        } else {
            let f = try pinhole.map { (name, value) throws(CameraConflict) -> Double in
                guard let value else { throw CameraConflict(description: "missing --camera or --\(name)") }
                return value
            }
            camera = CameraIntrinsics(width: 640, height: 480, fx: f[0], fy: f[1], cx: f[2], cy: f[3],
                                      distortion: distortion ?? [])
        }
        if let size {
            camera.width = size.width; camera.height = size.height
        } else if preset == nil, let first = try? firstImage(of: sequence), let header = ImageHeader.read(first) {
            camera.width = header.width; camera.height = header.height
        }
        if let p = camera.problem { throw CameraConflict(description: "camera: \(p)") }
        return camera
    }

    /// The first image `rgb.txt` in `sequence` lists, when it is a regular file inside the
    /// sequence folder; nil when the list names none.
    public static func firstImage(of sequence: URL) throws -> URL? {
        let text = try RegularFile.text(sequence.appendingPathComponent("rgb.txt"))
        for line in text.split(whereSeparator: \.isNewline) where !line.hasPrefix("#") {
            let f = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            if f.count >= 2 { return try ContainedPath.regularFile(String(f[1]), in: sequence, source: "rgb.txt") }
        }
        return nil
    }
}
