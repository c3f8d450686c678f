import Foundation
import Geometry
import Testing
import VPS

@Suite("COLMAP text model")
struct COLMAPTextModelTests {
    @Test func readsCamerasAndWorldToCameraPoses() throws {
        let cameras = try COLMAPTextModel.parseCameras("""
            # Camera list with one line of data per camera:
            1 PINHOLE 640 480 500 501 320 240
            2 OPENCV 320 240 260 260 160 120 0.01 -0.002 0.0001 0.0002
            3 SIMPLE_RADIAL 100 100 80 50 50 0.05
            """)
        #expect(cameras[1] == CameraIntrinsics(width: 640, height: 480, fx: 500, fy: 501, cx: 320, cy: 240))
        #expect(cameras[2]?.distortion == [0.01, -0.002, 0.0001, 0.0002])
        #expect(cameras[3]?.distortion == [0.05, 0, 0, 0])

        let pose = Pose.lookAt(eye: SIMD3(1, 2, 3), target: SIMD3(0, 1, 8))
        let cw = pose.inverse
        let q = cw.rotation, t = cw.translation
        let model = try COLMAPTextModel.parseImages("""
            # Image list with two lines of data per image:
            2 \(q.w) \(q.x) \(q.y) \(q.z) \(t.x) \(t.y) \(t.z) 1 b image.png
            100.0 200.0 -1

            1 1 0 0 0 0 0 0 2 a.png

            """, cameras: cameras)
        // Sorted by id; names may contain spaces; an empty points line is allowed.
        #expect(model.images.map(\.name) == ["a.png", "b image.png"])
        let back = model.images[1].pose
        #expect(back.error(to: pose).translation < 1e-9 && back.error(to: pose).rotationDegrees < 1e-6)
        #expect(model.images[0].intrinsics == cameras[2])
    }

    @Test func errorsNameFileAndLine() {
        let e1 = #expect(throws: COLMAPTextModel.ParseError.self) {
            try COLMAPTextModel.parseCameras("1 FISHEYE 640 480 1 2 3 4", file: "cameras.txt")
        }
        #expect(e1?.description.hasPrefix("cameras.txt:1:") == true)
        let e2 = #expect(throws: COLMAPTextModel.ParseError.self) {
            try COLMAPTextModel.parseImages("# c\n1 1 0 0 0 0 0 0 7 a.png\n\n", cameras: [:], file: "images.txt")
        }
        #expect(e2?.description == "images.txt:2: image 1 uses unknown camera 7")
    }

    /// The rendered wall session exported as a COLMAP model builds the same kind of map.
    @Test func buildsFromAModelOfTheWallSession() throws {
        let (dir, session) = MapBuilderTests.session
        let scratch = try makeScratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let k = session.camera
        try "1 PINHOLE \(k.width) \(k.height) \(k.fx) \(k.fy) \(k.cx) \(k.cy)\n"
            .write(toFile: scratch + "/cameras.txt", atomically: true, encoding: .utf8)
        var images = ""
        for (i, f) in session.frames.enumerated() {
            let cw = f.pose!.inverse
            images += "\(i + 1) \(cw.rotation.w) \(cw.rotation.x) \(cw.rotation.y) \(cw.rotation.z) "
                + "\(cw.translation.x) \(cw.translation.y) \(cw.translation.z) 1 \(f.image)\n\n"
        }
        try images.write(toFile: scratch + "/images.txt", atomically: true, encoding: .utf8)

        let model = try COLMAPTextModel.load(from: URL(fileURLWithPath: scratch))
        let frames = try MapBuildFrame.frames(of: model, images: dir)
        #expect(frames.count == session.frames.count)
        let (map, _) = try MapBuilder(options: MapBuilderTests.options()).build(frames: frames, metadata: .init(name: "colmap"))
        let (reference, _) = try MapBuilder(options: MapBuilderTests.options())
            .build(frames: try MapBuildFrame.frames(of: session, in: dir), metadata: .init(name: "session"))
        #expect(map.points.count == reference.points.count)
        #expect(map.points.count > 300)
    }
}
