import Foundation
import Geometry
import Baselines
import VPSModel
import Vision
import MapBuilding

/// A tiny recorded session for builder tests: a textured wall (the plane z = `wallZ`,
/// x in -3…3, y in 0…3 metres) seen by cameras moving sideways in front of it. Rendered
/// by ray casting in Swift, written as PNGs with a session.json.
package enum PlaneSceneRenderer {
    /// Bump when the rendering changes, so cached sessions are not reused.
    package static let version = 2
    package static let wallZ = 4.0
    package static let camera = CameraIntrinsics(width: 320, height: 240, fx: 260, fy: 260, cx: 160, cy: 120)

    package static func poses(count: Int) -> [Pose] {
        (0..<count).map { i in
            let x = -1.0 + 2.0 * Double(i) / Double(max(count - 1, 1))
            return Pose.lookAt(eye: SIMD3(x, 1.5, 0.2 * sin(Double(i))), target: SIMD3(x * 0.5, 1.4, wallZ))
        }
    }

    /// Writes `count` frames into `directory` and returns the session.
    @discardableResult
    package static func writeSession(to directory: URL, count: Int = 8) throws -> RecordedSession {
        let texture = try SyntheticImages.texture(width: 480, height: 240, seed: 11)
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("frames"), withIntermediateDirectories: true)
        var frames: [RecordedSession.Frame] = []
        for (i, pose) in poses(count: count).enumerated() {
            let image = try render(texture: texture, pose: pose)
            let name = String(format: "frames/%06d.png", i)
            try Data(try SyntheticImages.encode(image, as: .png)).write(to: directory.appendingPathComponent(name))
            frames.append(.init(id: String(format: "%06d", i), timestamp: Double(i) * 0.1, image: name, pose: pose))
        }
        let session = RecordedSession(name: "wall", camera: camera, frames: frames)
        try session.write(toDirectory: directory)
        return session
    }

    package static func render(texture: GrayImage, pose: Pose) throws -> GrayImage {
        let k = camera
        let r = pose.rotation.matrix
        let c = pose.translation
        var pixels = [UInt8](repeating: 128, count: k.width * k.height)
        let tw = Double(texture.width), th = Double(texture.height)
        texture.pixels.withUnsafeBufferPointer { tex in
            for v in 0..<k.height {
                for u in 0..<k.width {
                    // OpenCV convention: pixel (u, v) has its centre at coordinates (u, v).
                    let d = r * k.ray(SIMD2(Double(u), Double(v)))
                    guard d.z > 1e-6 else { continue }
                    let t = (wallZ - c.z) / d.z
                    let p = c + d * t
                    // Texture coordinates, bilinear sampling.
                    let tx = (p.x + 3) / 6 * tw - 0.5, ty = (3 - p.y) / 3 * th - 0.5
                    guard tx >= 0, ty >= 0, tx < tw - 1, ty < th - 1 else { continue }
                    let x0 = Int(tx), y0 = Int(ty)
                    let fx = tx - Double(x0), fy = ty - Double(y0)
                    let i = y0 * texture.width + x0
                    let a = Double(tex[i]), b = Double(tex[i + 1])
                    let cc = Double(tex[i + texture.width]), dd = Double(tex[i + texture.width + 1])
                    let value = (a * (1 - fx) + b * fx) * (1 - fy) + (cc * (1 - fx) + dd * fx) * fy
                    pixels[v * k.width + u] = UInt8(max(0, min(255, value.rounded())))
                }
            }
        }
        return try GrayImage(width: k.width, height: k.height, pixels: pixels)
    }
}

extension PlaneSceneRenderer {
    /// One rendered session shared by the map builder tests and reused by later runs
    /// (rendering is the slow part). Rendered beside, then renamed into place, so a
    /// concurrent or interrupted run never sees half a session.
    package static let sharedSession: (dir: URL, session: RecordedSession) = {
        let tmp = URL(fileURLWithPath: NSTemporaryDirectory())
        let dir = tmp.appendingPathComponent("arcloud-test-wall-session-v\(PlaneSceneRenderer.version)")
        if !FileManager.default.fileExists(atPath: dir.appendingPathComponent("session.json").path) {
            let scratch = tmp.appendingPathComponent("arcloud-test-wall-\(getpid())-\(UUID().uuidString.prefix(6))")
            _ = try? PlaneSceneRenderer.writeSession(to: scratch)
            if rename(scratch.path, dir.path) != 0 { try? FileManager.default.removeItem(at: scratch) }
        }
        return (dir, try! RecordedSession.load(from: dir))
    }()

    /// The map builder options the tests on this session use.
    package static func mapBuildOptions() -> MapBuildOptions {
        var o = MapBuildOptions()
        o.orb = ORBOptions(featureCount: 800)
        // The wall's tests are about geometry; `MapBuilderTests` builds the simulated views
        // of its eight keyframes where it tests them (a build is a minute under ASan).
        o.simulatedViews = .never
        return o
    }
}
