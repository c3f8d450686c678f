import Foundation
import Geometry
import Vision
import Baselines
import VPSModel

/// A scratch folder removed when the value is released.
package final class ScratchDirectory: Sendable {
    package let url: URL
    package init(_ label: String = "dataset") throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("arcloud-test-\(label)-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }
    deinit { try? FileManager.default.removeItem(at: url) }
}

package enum DatasetFixtures {
    /// The smallest byte sequence `ImageHeader` reads as a JPEG of the given size (SOI, SOF0, EOI).
    package static func jpegHeader(width: Int, height: Int) -> Data {
        var b: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x04, 0x4A, 0x46,     // SOI, short APP0
                          0xFF, 0xC0, 0x00, 0x11, 0x08,
                          UInt8(height >> 8), UInt8(height & 0xFF), UInt8(width >> 8), UInt8(width & 0xFF), 0x03]
        b += [UInt8](repeating: 0x11, count: 9)
        b += [0xFF, 0xD9]
        return Data(b)
    }

    /// A real JPEG of the given size (a synthetic texture), which decodes in full as
    /// `dataset validate` requires.
    package static func jpeg(width: Int, height: Int) throws -> Data {
        Data(try SyntheticImages.encode(try SyntheticImages.texture(width: width, height: height), as: .jpeg))
    }

    package static func pngHeader(width: Int, height: Int) -> Data {
        var b: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]
        for v in [UInt32(width), UInt32(height)] { withUnsafeBytes(of: v.bigEndian) { b += $0 } }
        b += [8, 2, 0, 0, 0]
        return Data(b)
    }

    package static let camera = CameraIntrinsics(width: 64, height: 48, fx: 50, fy: 50, cx: 32, cy: 24)

    /// A valid three-frame session with poses, odometry and a script.
    package static func session() -> RecordedSession {
        let frames = (0..<3).map { (i: Int) -> RecordedSession.Frame in
            let k = Double(i)
            let pose = Pose(rotation: Quaternion(axis: SIMD3(0, 1, 0), angle: k * 0.1),
                            translation: SIMD3(k, 1.5, -0.25))
            // Gravity-aligned like ARKit's: the ground truth turned about +y (yaw drift).
            let odometry = Pose(rotation: Quaternion(axis: SIMD3(0, 1, 0), angle: 0.3 + k) * pose.rotation,
                                translation: SIMD3(0.5, k, 2))
            return RecordedSession.Frame(id: String(format: "%06d", i), timestamp: k * 0.1,
                                         image: String(format: "frames/%06d.jpg", i),
                                         pose: pose, odometry: odometry)
        }
        return RecordedSession(name: "fixture", camera: camera, frames: frames,
                               script: [ScriptAction(time: 0.15, action: .tap(x: 10, y: 20)),
                                        ScriptAction(time: 0.2, action: .startNavigation(node: "room-b"))])
    }

    /// Writes `session` and a real JPEG for each frame into `dir`.
    package static func write(_ session: RecordedSession, to dir: URL, imageWidth: Int? = nil) throws {
        try session.write(toDirectory: dir)
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("frames"), withIntermediateDirectories: true)
        let image = try jpeg(width: imageWidth ?? session.camera.width, height: session.camera.height)
        for f in session.frames { try image.write(to: dir.appendingPathComponent(f.image)) }
    }
}
