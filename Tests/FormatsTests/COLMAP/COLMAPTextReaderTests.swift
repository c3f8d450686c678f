import Foundation
import Geometry
import Testing
import Formats
import MapBuilding
import TestSupport
import VPSModel

@Suite("COLMAP text reader")
struct COLMAPTextReaderTests {
    static let camerasText = """
        # Camera list with one line of data per camera:
        1 PINHOLE 640 480 500 501 320 240
        2 OPENCV 320 240 260 260 160 120 0.01 -0.002 0.0001 0.0002
        3 SIMPLE_RADIAL 100 100 80 50 50 0.05
        4 OPENCV_FISHEYE 640 480 300 300 320 240 0.1 0.01 0 0
        """

    @Test func readsCamerasAndWorldToCameraPoses() throws {
        let cameras = try COLMAPTextReader.parseCameras(Self.camerasText)
        let pose = Pose.lookAt(eye: SIMD3(1, 2, 3), target: SIMD3(0, 1, 8))
        let cw = pose.inverse
        let q = cw.rotation, t = cw.translation
        let images = try COLMAPTextReader.parseImages("""
            # Image list with two lines of data per image:
            2 \(q.w) \(q.x) \(q.y) \(q.z) \(t.x) \(t.y) \(t.z) 1 b image.png
            100.0 200.0 -1

            1 1 0 0 0 0 0 0 2 a.png

            """)
        let model = try COLMAPModel(format: .text, cameras: cameras, images: images)
        // Sorted by id; names may contain spaces; an empty points line is allowed.
        #expect(model.images.map(\.name) == ["a.png", "b image.png"])
        let back = model.images[1].pose
        #expect(back.error(to: pose).translation < 1e-9 && back.error(to: pose).rotationDegrees < 1e-6)
        #expect(try model.intrinsics(of: model.images[1])
                == CameraIntrinsics(width: 640, height: 480, fx: 500, fy: 501, cx: 320, cy: 240))
        #expect(try model.intrinsics(of: model.images[0]).distortion == [0.01, -0.002, 0.0001, 0.0002])
        #expect(try model.cameras[3]?.intrinsics().distortion == [0.05, 0, 0, 0])
    }

    /// CRLF line ends (a model edited on Windows) and tab separators read the same.
    @Test func crlfAndTabsReadAsUnix() throws {
        let unix = "1 1 0 0 0 0.5 0 0 1 a.png\n1.0 2.0 -1\n2 1 0 0 0 0 0.25 0 1 sub/b.png\n\n"
        let crlf = unix.replacingOccurrences(of: "\n", with: "\r\n").replacingOccurrences(of: " ", with: "\t")
        let a = try COLMAPTextReader.parseImages(unix), b = try COLMAPTextReader.parseImages(crlf)
        #expect(a.count == 2)
        #expect(a.map(\.name) == b.map(\.name))
        #expect(a.map(\.worldToCamera) == b.map(\.worldToCamera))
        let cams = try COLMAPTextReader.parseCameras("1\tPINHOLE\t640\t480\t500\t500\t320\t240\r\n")
        #expect(cams.first?.params == [500, 500, 320, 240])
    }

    @Test func errorsNameFileAndLine() throws {
        func message(_ body: () throws -> Void) -> String? {
            do { try body(); return nil } catch { return "\(error)" }
        }
        #expect(message { _ = try COLMAPTextReader.parseImages("# c\n1 1 0 0 0 inf 0 0 1 a.png\n\n", file: "images.txt") }
                == "images.txt:2: pose value 'inf' is not finite")
        // Duplicates are found when the model is assembled: the second occurrence is named.
        let cams = try COLMAPTextReader.parseCameras("1 PINHOLE 640 480 500 500 320 240", file: "cameras.txt")
        let dupId = try COLMAPTextReader.parseImages("1 1 0 0 0 0 0 0 1 a.png\n\n1 1 0 0 0 0 0 0 1 b.png\n\n", file: "images.txt")
        #expect(message { _ = try COLMAPModel(format: .text, cameras: cams, images: dupId) }
                == "images.txt:3: image id 1 is listed twice (first at images.txt:1)")
        let dupName = try COLMAPTextReader.parseImages("1 1 0 0 0 0 0 0 1 a.png\n\n2 1 0 0 0 0 0 0 1 a.png\n\n", file: "images.txt")
        #expect(message { _ = try COLMAPModel(format: .text, cameras: cams, images: dupName) }
                == "images.txt:3: image name 'a.png' is listed twice (first at images.txt:1)")
        let dupCamera = try COLMAPTextReader.parseCameras("1 PINHOLE 640 480 500 500 320 240\n1 PINHOLE 640 480 500 500 320 240", file: "cameras.txt")
        #expect(message { _ = try COLMAPModel(format: .text, cameras: dupCamera, images: []) }
                == "cameras.txt:2: camera id 1 is defined twice (first at cameras.txt:1)")
        let unknownCamera = try COLMAPTextReader.parseImages("# c\n1 1 0 0 0 0 0 0 7 a.png\n\n", file: "images.txt")
        #expect(message { _ = try COLMAPModel(format: .text, cameras: cams, images: unknownCamera) }?
                .hasPrefix("images.txt:2: image 1 uses camera 7") == true)
        // A missing POINTS2D line would swallow the next image: an error, not a lost image.
        #expect(message { _ = try COLMAPTextReader.parseImages("1 1 0 0 0 0 0 0 1 a.png\n2 1 0 0 0 0 0 0 1 b.png\n\n", file: "images.txt") }?
                .hasPrefix("images.txt:2: expected the POINTS2D line of image 1") == true)
        #expect(message { _ = try COLMAPTextReader.parseCameras("1 PINHOLE 640 480 nan 500 320 240", file: "cameras.txt") }
                == "cameras.txt:1: camera parameter 'nan' is not finite")
        #expect(message { _ = try COLMAPTextReader.parseCameras("1 OPENCV 640 480 500 500 320 240", file: "cameras.txt") }
                == "cameras.txt:1: camera 1: OPENCV needs 8 parameters, got 4")
        #expect(message { _ = try COLMAPTextReader.parseImages("1 0.5 0 0 0 0 0 0 1 a.png\n\n", file: "images.txt") }?
                .hasPrefix("images.txt:1: qvec is not a unit quaternion") == true)
    }

    /// Fisheye and unknown models are read, and refused with their name when used.
    @Test func fisheyeModelsAreRefusedByName() throws {
        let cameras = try COLMAPTextReader.parseCameras(Self.camerasText + "\n5 SIMPLE_RADIAL_FISHEYE 640 480 300 320 240 0.1\n6 WEIRD 640 480 1 2 3",
                                                        file: "cameras.txt")
        for (id, line, model) in [(4, 5, "OPENCV_FISHEYE"), (5, 6, "SIMPLE_RADIAL_FISHEYE"), (6, 7, "WEIRD")] {
            let camera = try #require(cameras.first { $0.id == id })
            #expect {
                try camera.intrinsics()
            } throws: { error in
                let e = error as? DatasetImportError
                return e?.file == "cameras.txt" && e?.line == line && e?.message.contains(model) == true
            }
        }
        // FULL_OPENCV without rational terms is OpenCV's five-term model.
        let full = try COLMAPTextReader.parseCameras("1 FULL_OPENCV 640 480 500 500 320 240 0.1 0.01 0.001 0.002 0.003 0 0 0")
        #expect(try full[0].intrinsics().distortion == [0.1, 0.01, 0.001, 0.002, 0.003])
    }

    @Test func defaultImageFolderFollowsCOLMAPsProjectLayout() throws {
        let project = try ScratchDirectory("colmap-layout")
        let fm = FileManager.default
        let sparse0 = project.url.appendingPathComponent("sparse/0")
        try fm.createDirectory(at: sparse0, withIntermediateDirectories: true)
        try fm.createDirectory(at: project.url.appendingPathComponent("images"), withIntermediateDirectories: true)
        func real(_ u: URL) -> String { u.resolvingSymlinksInPath().path }
        #expect(real(COLMAPModel.defaultImageFolder(for: sparse0)) == real(project.url.appendingPathComponent("images")))
        #expect(real(COLMAPModel.defaultImageFolder(for: project.url.appendingPathComponent("sparse")))
                == real(project.url.appendingPathComponent("images")))
        // Another layout: the folder beside the model.
        let other = try ScratchDirectory("colmap-layout2")
        let model = other.url.appendingPathComponent("model")
        try fm.createDirectory(at: model, withIntermediateDirectories: true)
        try fm.createDirectory(at: other.url.appendingPathComponent("images"), withIntermediateDirectories: true)
        #expect(real(COLMAPModel.defaultImageFolder(for: model)) == real(other.url.appendingPathComponent("images")))
    }

    @Test func aFolderWithoutAModelSaysWhatItExpected() throws {
        let empty = try ScratchDirectory("colmap-empty")
        #expect {
            try COLMAPModel.load(from: empty.url)
        } throws: { error in "\(error)".contains("expected cameras.bin and images.bin, or cameras.txt and images.txt") }
    }

    /// The rendered wall session exported as a COLMAP model builds the same map.
    @Test func buildsFromAModelOfTheWallSession() throws {
        let (dir, session) = PlaneSceneRenderer.sharedSession
        let scratch = try ScratchDirectory("colmap-wall")
        let k = session.camera
        try "1 PINHOLE \(k.width) \(k.height) \(k.fx) \(k.fy) \(k.cx) \(k.cy)\r\n"
            .write(to: scratch.url.appendingPathComponent("cameras.txt"), atomically: true, encoding: .utf8)
        var images = ""
        for (i, f) in session.frames.enumerated() {
            let cw = f.pose!.inverse
            images += "\(i + 1)\t\(cw.rotation.w) \(cw.rotation.x) \(cw.rotation.y) \(cw.rotation.z) "
                + "\(cw.translation.x) \(cw.translation.y) \(cw.translation.z) 1 \(f.image)\r\n\r\n"
        }
        try images.write(to: scratch.url.appendingPathComponent("images.txt"), atomically: true, encoding: .utf8)

        let model = try COLMAPModel.load(from: scratch.url)
        let frames = try MapBuildFrame.frames(of: model, images: dir)
        #expect(frames.count == session.frames.count)
        let (map, _) = try MapBuilder(options: PlaneSceneRenderer.mapBuildOptions()).build(frames: frames, metadata: .init(name: "colmap"))
        let (reference, _) = try MapBuilder(options: PlaneSceneRenderer.mapBuildOptions())
            .build(frames: try MapBuildFrame.frames(of: session, in: dir), metadata: .init(name: "session"))
        #expect(map.points.count == reference.points.count)
        #expect(map.points.count > 300)
    }

    /// Image names that climb out of the image folder are refused, naming the model file.
    @Test func imageNamesStayInsideTheImageFolder() throws {
        let root = try ScratchDirectory("colmap-escape")
        let images = root.url.appendingPathComponent("images")
        try FileManager.default.createDirectory(at: images, withIntermediateDirectories: true)
        try Data("secret".utf8).write(to: root.url.appendingPathComponent("outside.png"))
        let cams = try COLMAPTextReader.parseCameras("1 PINHOLE 640 480 500 500 320 240")
        let list = try COLMAPTextReader.parseImages("1 1 0 0 0 0 0 0 1 ../outside.png\n\n", file: "images.txt")
        let model = try COLMAPModel(format: .text, cameras: cams, images: list)
        #expect {
            try MapBuildFrame.frames(of: model, images: images)
        } throws: { error in "\(error)".hasPrefix("images.txt:1: image 1: ") && "\(error)".contains("leaves the folder") }
    }
}
