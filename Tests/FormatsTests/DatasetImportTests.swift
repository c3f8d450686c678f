import Foundation
import Geometry
import Testing
import Vision
import Formats
import TestSupport
import VPSModel

@Suite struct DatasetImportTests {
    static func writePNG(_ url: URL, width: Int = 40, height: Int = 30) throws {
        let image = RenderedImage(width: width, height: height, pixels: [UInt8](repeating: 90, count: width * height * 3))
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try ImageEncoding.png(image).write(to: url)
    }

    /// Ground truth of the TUM fixture: x = t, rotation of t radians about y.
    static func truth(_ t: Double) -> Pose {
        Pose(rotation: Quaternion(axis: SIMD3(0, 1, 0), angle: t), translation: SIMD3(t, 1, -t / 2))
    }

    @Test func tumSequenceWithInterpolatedGroundTruth() throws {
        let seq = try ScratchDirectory("tum"), out = try ScratchDirectory("tum-out")
        let rgbTimes = [100.005, 100.1234, 100.25, 103.0]   // the last has no ground truth near it
        var rgb = "# color images\n# timestamp filename\n"
        for (i, t) in rgbTimes.enumerated() {
            rgb += "\(t) rgb/\(i).png\n"
            try Self.writePNG(seq.url.appendingPathComponent("rgb/\(i).png"))
        }
        try Data(rgb.utf8).write(to: seq.url.appendingPathComponent("rgb.txt"))
        var gt = "# ground truth trajectory\n# timestamp tx ty tz qx qy qz qw\n"
        for k in 0...40 { gt += Self.truth(100 + Double(k) * 0.01).tumLine(timestamp: 100 + Double(k) * 0.01) + "\n" }
        try Data(gt.utf8).write(to: seq.url.appendingPathComponent("groundtruth.txt"))

        let camera = CameraIntrinsics(width: 40, height: 30, fx: 35, fy: 35, cx: 20, cy: 15)
        let session = try TUMImporter(camera: camera).importSequence(from: seq.url, to: out.url, name: "tum")
        #expect(session.frames.count == 4)
        // Times as recorded, names kept: frame ids are the image stems.
        #expect(session.frames.map(\.timestamp) == rgbTimes)
        #expect(session.frames.map(\.id) == ["0", "1", "2", "3"])
        #expect(session.frames.map(\.image) == ["frames/0.png", "frames/1.png", "frames/2.png", "frames/3.png"])
        for (f, t) in zip(session.frames.prefix(3), rgbTimes) {
            let e = try #require(f.pose).error(to: Self.truth(t))
            #expect(e.translation < 1e-6 && e.rotationDegrees < 1e-3, "frame at \(t): \(e)")
        }
        #expect(session.frames[3].pose == nil)
        #expect(SessionValidator.validate(directory: out.url).isEmpty)

        var strict = TUMImporter(camera: camera)
        strict.requirePose = true
        let out2 = try ScratchDirectory("tum-out2")
        #expect(try strict.importSequence(from: seq.url, to: out2.url, name: "tum").frames.count == 3)
    }

    @Test func tumMalformedLinesAreNamed() throws {
        let seq = try ScratchDirectory("tum-bad"), out = try ScratchDirectory("tum-bad-out")
        try Data("# header\n1.0 rgb/0.png\nnot-a-time rgb/1.png\n".utf8).write(to: seq.url.appendingPathComponent("rgb.txt"))
        let importer = TUMImporter(camera: CameraIntrinsics(width: 40, height: 30, fx: 35, fy: 35, cx: 20, cy: 15))
        #expect(throws: DatasetImportError("rgb.txt", line: 3, "expected 'timestamp' and 1 more field(s)")) {
            try importer.importSequence(from: seq.url, to: out.url, name: "x")
        }
    }

    @Test func colmapModelBecomesCameraToMapPoses() throws {
        let model = try ScratchDirectory("colmap"), out = try ScratchDirectory("colmap-out")
        let images = model.url.appendingPathComponent("images")
        for name in ["b.png", "a.png", "other.png"] { try Self.writePNG(images.appendingPathComponent(name)) }
        try Data("""
            # Camera list with one line of data per camera:
            #   CAMERA_ID, MODEL, WIDTH, HEIGHT, PARAMS[]
            1 OPENCV 40 30 36 37 20.5 14.5 0.1 -0.02 0.001 0.002
            2 PINHOLE 40 30 30 30 20 15

            """.utf8).write(to: model.url.appendingPathComponent("cameras.txt"))
        // World-to-camera poses: the camera centre is -R^T t.
        let wc1 = Pose(rotation: Quaternion(axis: SIMD3(0.2, 1, 0.1), angle: 0.7), translation: SIMD3(0.5, -0.2, 2))
        let wc2 = Pose(rotation: Quaternion(axis: SIMD3(1, 0, 0), angle: -0.3), translation: SIMD3(-1, 0, 0.5))
        func line(_ id: Int, _ p: Pose, _ cam: Int, _ name: String) -> String {
            let q = p.rotation, t = p.translation
            return "\(id) \(q.w) \(q.x) \(q.y) \(q.z) \(t.x) \(t.y) \(t.z) \(cam) \(name)"
        }
        try Data("""
            # Image list with two lines of data per image:
            #   IMAGE_ID, QW, QX, QY, QZ, TX, TY, TZ, CAMERA_ID, NAME
            #   POINTS2D[] as (X, Y, POINT3D_ID)
            \(line(1, wc1, 1, "b.png"))
            10.5 12.5 -1 3.0 4.0 7
            \(line(2, wc2, 1, "a.png"))

            \(line(3, wc2, 2, "other.png"))
            1 1 -1

            """.utf8).write(to: model.url.appendingPathComponent("images.txt"))
        let result = try COLMAPImporter().importModel(from: model.url, images: images, to: out.url, name: "colmap")
        #expect(result.skipped == 1)
        #expect(result.format == .text)
        #expect(result.session.frames.map(\.id) == ["a", "b"])
        #expect(result.session.frames.map(\.image) == ["frames/a.png", "frames/b.png"])
        let s = result.session
        #expect(s.camera == CameraIntrinsics(width: 40, height: 30, fx: 36, fy: 37, cx: 20.5, cy: 14.5,
                                             distortion: [0.1, -0.02, 0.001, 0.002]))
        #expect(s.frames.count == 2)
        // Sorted by name: a.png (wc2) first.
        let a = try #require(s.frames[0].pose), b = try #require(s.frames[1].pose)
        #expect(length(a.center - (-(wc2.rotation.conjugate.rotate(wc2.translation)))) < 1e-9)
        #expect((a * wc2).error(to: .identity).rotationDegrees < 1e-6)
        #expect((b * wc1).error(to: .identity).translation < 1e-9)
        #expect(abs(s.frames[1].timestamp - 0.1) < 1e-12)
        #expect(SessionValidator.validate(directory: out.url).isEmpty)
    }

    /// A JPEG's EXIF GPS becomes its frame's reading (its stated error as the accuracy, or
    /// the assumed one); a PNG and a JPEG without GPS get none; the count is in the result.
    @Test func colmapPhotosEXIFGPSBecomesTheFramesReading() throws {
        let model = try ScratchDirectory("colmap-gps"), out = try ScratchDirectory("colmap-gps-out")
        let images = model.url.appendingPathComponent("images")
        try Self.writePNG(images.appendingPathComponent("c.png"))
        let image = RenderedImage(width: 40, height: 30, pixels: [UInt8](repeating: 90, count: 40 * 30 * 3))
        let jpeg = try ImageEncoding.jpeg(image)
        try EXIFGPSWriter.insert(into: jpeg, latitude: 52.3731, longitude: 4.8922, altitude: 2.5, horizontalError: 6)
            .write(to: images.appendingPathComponent("a.jpg"))
        try EXIFGPSWriter.insert(into: jpeg, latitude: -33.8568, longitude: -151.2153, altitude: -4)
            .write(to: images.appendingPathComponent("b.jpg"))
        try jpeg.write(to: images.appendingPathComponent("d.jpg"))
        try Data("1 PINHOLE 40 30 30 30 20 15\n".utf8).write(to: model.url.appendingPathComponent("cameras.txt"))
        try Data(["a.jpg", "b.jpg", "c.png", "d.jpg"].enumerated().map { i, name in
            "\(i + 1) 1 0 0 0 \(Double(i)) 0 0 1 \(name)\n\n"
        }.joined().utf8).write(to: model.url.appendingPathComponent("images.txt"))
        let result = try COLMAPImporter().importModel(from: model.url, images: images, to: out.url, name: "gps")
        #expect(result.framesWithGPS == 2)
        #expect(result.text.hasSuffix("4 frames with poses from a text model, 2 with EXIF GPS"), "\(result.text)")
        let gps = try RecordedSession.load(from: out.url).frames.map(\.gps)
        let a = try #require(gps[0]), b = try #require(gps[1])
        #expect(abs(a.position.latitude - 52.3731) < 1e-7 && abs(a.position.longitude - 4.8922) < 1e-7)
        #expect(a.accuracy == 6 && abs(a.position.height - 2.5) < 1e-9)
        #expect(abs(b.position.latitude + 33.8568) < 1e-7 && abs(b.position.longitude + 151.2153) < 1e-7)
        #expect(b.accuracy == EXIFGPS.assumedAccuracy && abs(b.position.height + 4) < 1e-9)
        #expect(gps[2] == nil && gps[3] == nil)
    }

    /// Intrinsics describe the image as stored: an image of another size than its camera's
    /// is refused, naming the model's line and both sizes, before any image is copied.
    @Test func colmapImagesOfAnotherSizeAreRefused() throws {
        let model = try ScratchDirectory("colmap-size"), out = try ScratchDirectory("colmap-size-out")
        let images = model.url.appendingPathComponent("images")
        try Self.writePNG(images.appendingPathComponent("a.png"))
        try Self.writePNG(images.appendingPathComponent("b.png"), width: 80, height: 60)
        try Data("1 PINHOLE 40 30 36 36 20 15\n".utf8).write(to: model.url.appendingPathComponent("cameras.txt"))
        try Data("1 1 0 0 0 0 0 0 1 a.png\n\n2 1 0 0 0 0 0 1 1 b.png\n\n".utf8)
            .write(to: model.url.appendingPathComponent("images.txt"))
        #expect {
            try COLMAPImporter().importModel(from: model.url, images: images, to: out.url, name: "x")
        } throws: { error in
            let e = error as? DatasetImportError
            return e?.file.hasSuffix("/images.txt") == true && e?.line == 3
                && e?.message.contains("b.png is 80x60 but the camera says 40x30") == true
        }
        #expect(!FileManager.default.fileExists(atPath: out.url.appendingPathComponent("frames").path))
    }

    @Test func colmapUnsupportedModelNamesTheLine() throws {
        let model = try ScratchDirectory("colmap-bad"), out = try ScratchDirectory("colmap-bad-out")
        try Data("# cameras\n1 FISHEYE 40 30 1 2 3 4\n".utf8).write(to: model.url.appendingPathComponent("cameras.txt"))
        try Data("1 1 0 0 0 0 0 0 1 a.png\n\n".utf8).write(to: model.url.appendingPathComponent("images.txt"))
        #expect {
            try COLMAPImporter().importModel(from: model.url, images: model.url, to: out.url, name: "x")
        } throws: { error in
            let e = error as? DatasetImportError
            return e?.file.hasSuffix("/cameras.txt") == true && e?.line == 2 && e?.message.contains("FISHEYE") == true
        }
    }

    @Test func tumExportReadsBack() throws {
        let session = DatasetFixtures.session()
        let text = session.tumTrajectory()
        let dir = try ScratchDirectory("tum-export")
        let file = dir.url.appendingPathComponent("gt.txt")
        try Data(text.utf8).write(to: file)
        let back = try TUMImporter.readTrajectory(file)
        #expect(back.count == session.frames.count)
        for ((t, pose), f) in zip(back, session.frames) {
            #expect(abs(t - f.timestamp) < 1e-6)
            let e = pose.error(to: try #require(f.pose))
            #expect(e.translation < 1e-8 && e.rotationDegrees < 1e-6)
        }
        // Every data line has exactly 8 numbers (what evo's TUM reader requires).
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            #expect(line.split(separator: " ").compactMap { Double($0) }.count == 8)
        }
        let odometry = session.tumTrajectory(.odometry)
        #expect(odometry.split(separator: "\n").filter { !$0.hasPrefix("#") }.count == 3)
    }
}
