import Foundation
import GraffityARCloud

/// Frames as bytes of a tiny valid PNG header: enough for a backend that never decodes.
struct PlaceholderImages: FrameImageSource {
    func image(for frame: RecordedSession.Frame) throws -> EncodedImage {
        EncodedImage(format: .png, data: Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
    }
}

/// The repository root (the shipped map and sessions live there).
let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

/// `frames` frames at 10 Hz from t = 0, with odometry standing still, for backends that
/// never look at the images.
func placeholderSession(frames: Int) -> RecordedSession {
    let camera = CameraIntrinsics(width: 640, height: 480, fx: 525, fy: 525, cx: 319.5, cy: 239.5)
    let identity = Pose(rotation: Quaternion(x: 0, y: 0, z: 0, w: 1), translation: .zero)
    return RecordedSession(name: "placeholder", camera: camera, frames: (0..<frames).map {
        RecordedSession.Frame(id: "f\($0)", timestamp: Double($0) / 10, image: "f\($0).png", odometry: identity)
    })
}
