import Foundation
import Geometry
import Testing
import Vision
import SceneSynthesis
import VPSModel

@Suite struct SynthOdometryAndTrajectoryTests {
    /// Over a 60 m walk the odometry drifts like VIO: noticeably (not zero) but only a few
    /// centimetres per metre, for every seed tried.
    @Test(arguments: [UInt64(1), 2, 3, 4, 5]) func odometryDriftsAFewCentimetresPerMetre(seed: UInt64) {
        let frames = (0...120).map { k -> (time: Double, pose: Pose) in
            let s = Double(k) * 0.5   // metres along a square-ish path
            let p = SIMD3(10 * sin(s / 10), 1.5, s * 0.3)
            return (Double(k) * 0.7, Pose.lookAt(eye: p, target: p + SIMD3(1, 0, 0.2)))
        }
        let odo = OdometryDrift().odometry(for: frames, seed: seed)
        // Align the first frames: odometry relative to its start vs. ground truth relative to its start.
        let gt0 = frames[0].pose, o0 = odo[0]
        var travelled = 0.0
        for k in 1..<frames.count { travelled += length(frames[k].pose.center - frames[k - 1].pose.center) }
        let gtEnd = gt0.inverse * frames.last!.pose, odoEnd = o0.inverse * odo.last!
        let drift = length(gtEnd.translation - odoEnd.translation)
        #expect(drift > 0.002 * travelled, "drift \(drift) m over \(travelled) m")
        #expect(drift < 0.08 * travelled, "drift \(drift) m over \(travelled) m")
        // Gravity stays known: the local frame's up is the map's up.
        for (g, o) in zip(frames, odo) {
            let upG = g.pose.rotation.conjugate.rotate(SIMD3(0, 1, 0)), upO = o.rotation.conjugate.rotate(SIMD3(0, 1, 0))
            #expect(length(upG - upO) < 1e-9)
        }
    }

    @Test func walkingTrajectoryStaysInsideTheRoomsAtHandHeight() throws {
        let layout = try #require(SceneLayout.preset("gallery", seed: 7))
        let planner = TrajectoryPlanner(layout: layout)
        let rooms = layout.spaces.filter { $0.kind == .room }.map(\.id)
        let trajectory = planner.trajectory([.loop(space: rooms[0], inset: 1.3, clockwise: false, phase: 0),
                                             .walk(to: rooms[1])], seed: 1)
        var lastYaw = trajectory.samples[0].yaw
        for s in trajectory.samples {
            #expect(layout.sections.contains { $0.contains(s.position) }, "outside at \(s.position)")
            #expect(s.position.y > 1.35 && s.position.y < 1.65)
            #expect(abs(s.pitch) < 0.25 && abs(s.roll) < 0.1)
            // Smooth: no yaw jumps between dense samples.
            #expect(abs(s.yaw - lastYaw) < 0.05)
            lastYaw = s.yaw
        }
        #expect(trajectory.length > 8)
        // Timing respects the walking speed.
        #expect(trajectory.length / trajectory.duration <= planner.motion.speed + 1e-9)
    }

    @Test func rendererRefusesBadInput() throws {
        #expect(throws: RenderError.self) { try RenderTexture(width: 0, height: 10, ops: []) }
        #expect(throws: RenderError.self) {
            try RenderTexture(width: 10, height: 10, ops: [.noise(cell: 0, from: .zero, to: .zero, alpha: 1, seed: 1)])
        }
        #expect(throws: RenderError.self) { try RenderTexture(imageData: Data("no image".utf8)) }
        let tex = try RenderTexture(width: 4, height: 4, ops: [.fill(RGBColor(1, 2, 3))])
        let cam = CameraIntrinsics(width: 32, height: 24, fx: 30, fy: 30, cx: 16, cy: 12)
        let plane = RenderPlane(corners: [SIMD3(-1, 0, 1), SIMD3(1, 0, 1), SIMD3(1, 1, 1), SIMD3(-1, 1, 1)], texture: tex)
        #expect(throws: RenderError.self) { try Renderer.render(camera: cam, poses: [], planes: [plane]) }
        #expect(throws: RenderError.self) {
            try Renderer.render(camera: cam, poses: [.identity], planes: [plane], effects: RenderEffects(gain: .nan))
        }
    }

    @Test func encodedImagesDecodeToTheirSizeAndTexturesLoadFromThem() throws {
        let tex = try RenderTexture(width: 48, height: 32, ops: [
            .fill(RGBColor(20, 40, 60)), .rect(min: SIMD2(8, 8), max: SIMD2(24, 20), color: RGBColor(250, 10, 10)),
        ])
        let image = tex.image()
        #expect(image[16, 14] == RGBColor(250, 10, 10) && image[40, 28] == RGBColor(20, 40, 60))
        let png = try ImageEncoding.png(image), jpg = try ImageEncoding.jpeg(image, quality: 90)
        #expect(ImageHeader.parse(png) == ImageHeader(format: .png, width: 48, height: 32))
        #expect(ImageHeader.parse(jpg) == ImageHeader(format: .jpeg, width: 48, height: 32))
        // PNG is lossless: loading it back as a texture gives the same pixels.
        #expect(try RenderTexture(imageData: png).image() == image)
        // Same pixels, same bytes.
        #expect(try ImageEncoding.jpeg(image, quality: 90) == jpg)
    }

    /// A JPEG texture (a photo passed to `dataset synth --textures`) is turned upright by its
    /// EXIF orientation, as OpenCV's imdecode did: 6 (the phone held upright, its sensor
    /// turned) makes a 48×32 photo a 32×48 texture, its left column the top row.
    @Test func jpegTexturesAreTurnedUprightByTheirEXIFOrientation() throws {
        let tex = try RenderTexture(width: 48, height: 32, ops: [
            .fill(RGBColor(20, 40, 60)), .rect(min: SIMD2(0, 0), max: SIMD2(16, 16), color: RGBColor(250, 10, 10)),
        ])
        let jpg = [UInt8](try ImageEncoding.jpeg(tex.image(), quality: 95))
        func withOrientation(_ value: UInt8) -> Data {
            // APP1 "Exif": a little-endian TIFF header and one IFD0 entry, tag 0x0112 (SHORT).
            let tiff: [UInt8] = [0x49, 0x49, 0x2A, 0, 8, 0, 0, 0, 1, 0, 0x12, 0x01, 3, 0, 1, 0, 0, 0, value, 0, 0, 0, 0, 0, 0, 0]
            let payload = Array("Exif".utf8) + [0, 0] + tiff
            let length = payload.count + 2
            return Data(jpg[0..<2] + [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + payload + jpg[2...])
        }
        func close(_ a: SIMD3<UInt8>, _ b: RGBColor) -> Bool {
            let d = SIMD3<Int>(truncatingIfNeeded: a) &- SIMD3<Int>(truncatingIfNeeded: b)
            return (d &* d).wrappedSum() < 300
        }
        let upright = try RenderTexture(imageData: withOrientation(1)).image()
        #expect(upright.width == 48 && upright.height == 32)
        #expect(close(upright[4, 4], RGBColor(250, 10, 10)) && close(upright[44, 28], RGBColor(20, 40, 60)))
        let turned = try RenderTexture(imageData: withOrientation(6)).image()
        #expect(turned.width == 32 && turned.height == 48)
        // Turned a quarter clockwise: the photo's top-left corner is now the top-right.
        #expect(close(turned[28, 4], RGBColor(250, 10, 10)) && close(turned[4, 4], RGBColor(20, 40, 60)))
        #expect(close(turned[28, 44], RGBColor(20, 40, 60)))
    }
}
