import Foundation
import Geometry
import Testing
import Formats
import TestSupport
import VPSModel

@Suite struct NerfstudioImportTests {
    /// Camera poses (OpenCV axes) of the fixture: looking at the origin from around it.
    static let poses = (0..<3).map { i in
        Pose.lookAt(eye: SIMD3(2 * cos(Double(i)), 0.5, 2 * sin(Double(i))), target: SIMD3(0, 0, 0))
    }

    /// `transform_matrix` rows of a pose as nerfstudio writes it: camera-to-world, OpenGL axes.
    static func glMatrix(_ p: Pose) -> [[Double]] {
        let r = p.rotation.matrix, t = p.translation
        let rows = [r.r0, r.r1, r.r2]
        return (0..<3).map { i in [rows[i].x, -rows[i].y, -rows[i].z, t[i]] } + [[0, 0, 0, 1]]
    }

    /// A capture folder: `images/frame_0000{1,2,3}.png`, shared intrinsics at the top level,
    /// frame 2 with its own (slightly different, as phone exports write them).
    static func writeCapture(_ dir: URL, topLevel: [String: Any]? = nil, missing: Bool = false) throws {
        var frames: [[String: Any]] = []
        for (i, p) in poses.enumerated() {
            let path = "images/frame_0000\(i + 1).png"
            if !(missing && i == 1) { try DatasetImportTests.writePNG(dir.appendingPathComponent(path), width: 40, height: 30) }
            var f: [String: Any] = ["file_path": path, "transform_matrix": glMatrix(p)]
            if i == 1 { f["fl_x"] = 36.1; f["fl_y"] = 36.1 }
            frames.append(f)
        }
        var root: [String: Any] = topLevel ?? ["camera_model": "OPENCV", "fl_x": 36.0, "fl_y": 36.0, "cx": 20.0, "cy": 15.0,
                                               "w": 40, "h": 30, "k1": 0.01, "k2": -0.002, "p1": 0.0, "p2": 0.0]
        root["frames"] = Array(frames.reversed())   // listed out of order: the importer orders by name
        try JSONSerialization.data(withJSONObject: root).write(to: dir.appendingPathComponent("transforms.json"))
    }

    @Test func posesTurnFromOpenGLToOpenCVAxes() throws {
        let capture = try ScratchDirectory("ns"), out = try ScratchDirectory("ns-out")
        try Self.writeCapture(capture.url)
        let result = try NerfstudioImporter().importCapture(from: capture.url, to: out.url, name: "ns")
        let s = result.session
        #expect(s.frames.map(\.id) == ["frame_00001", "frame_00002", "frame_00003"])
        #expect(s.frames.map(\.image) == ["frames/images/frame_00001.png", "frames/images/frame_00002.png", "frames/images/frame_00003.png"])
        for (f, truth) in zip(s.frames, Self.poses) {
            let e = try #require(f.pose).error(to: truth)
            #expect(e.translation < 1e-9 && e.rotationDegrees < 1e-6)
            // The origin is in front of the camera (OpenCV: +z forwards) and near the image centre.
            let inCamera = try #require(f.pose).inverse.apply(SIMD3(0, 0, 0))
            #expect(inCamera.z > 1)
            let pixel = try #require(s.camera.project(inCamera))
            #expect(abs(pixel.x - 20) < 1 && abs(pixel.y - 15) < 1)
        }
        // The median of 36, 36.1, 36 and the top-level distortion.
        #expect(s.camera == CameraIntrinsics(width: 40, height: 30, fx: 36, fy: 36, cx: 20, cy: 15, distortion: [0.01, -0.002, 0, 0]))
        #expect(abs(result.intrinsicsSpread - 0.1 / 36) < 1e-9)
        #expect(SessionValidator.validate(directory: out.url).isEmpty)

        // map build reads the same file with each frame's own intrinsics.
        let transforms = try NerfstudioTransforms.load(from: capture.url.appendingPathComponent("transforms.json"))
        #expect(MapBuildFrame.frames(of: transforms).map(\.intrinsics.fx) == [36, 36.1, 36])
    }

    @Test func cameraAngleXAloneGivesTheFocalLength() throws {
        let capture = try ScratchDirectory("ns-angle"), out = try ScratchDirectory("ns-angle-out")
        let angle = 2 * atan(20.0 / 36.0)   // fx = 36 for a 40-pixel-wide image
        try Self.writeCapture(capture.url, topLevel: ["camera_angle_x": angle])
        let t = try NerfstudioTransforms.load(from: capture.url)
        #expect(t.frames.allSatisfy { $0.intrinsics.width == 40 && $0.intrinsics.height == 30 })   // from the PNG header
        let first = try #require(t.frames.first { $0.filePath.hasSuffix("1.png") })
        #expect(abs(first.intrinsics.fx - 36) < 1e-9 && abs(first.intrinsics.fy - 36) < 1e-9)
        #expect(first.intrinsics.cx == 20 && first.intrinsics.cy == 15)
        _ = try NerfstudioImporter().importCapture(from: capture.url, to: out.url, name: "x")
    }

    @Test func missingImagesAreNamedUnlessSkipped() throws {
        let capture = try ScratchDirectory("ns-missing"), out = try ScratchDirectory("ns-missing-out")
        try Self.writeCapture(capture.url, missing: true)
        #expect {
            try NerfstudioImporter().importCapture(from: capture.url, to: out.url, name: "x")
        } throws: { error in
            "\(error)".contains("frames[1].file_path") && "\(error)".contains("images/frame_00002.png") && "\(error)".contains("--skip-missing")
        }
        var importer = NerfstudioImporter()
        importer.skipMissing = true
        let r = try importer.importCapture(from: capture.url, to: out.url, name: "x")
        #expect(r.session.frames.map(\.id) == ["frame_00001", "frame_00003"])
        #expect(r.missing == ["frames[1] 'images/frame_00002.png'"])
    }

    @Test func badInputIsNamed() throws {
        let capture = try ScratchDirectory("ns-bad")
        func error(_ json: String) -> String {
            try? Data(json.utf8).write(to: capture.url.appendingPathComponent("transforms.json"))
            do { _ = try NerfstudioTransforms.load(from: capture.url); return "" } catch { return "\(error)" }
        }
        #expect(error(#"{"camera_model": "OPENCV_FISHEYE", "frames": []}"#).contains("OPENCV_FISHEYE"))
        #expect(error(#"{"frames": []}"#).contains("frames: the list is empty"))
        #expect(error(#"{"fl_x": 30, "frames": [{"file_path": "a.png", "transform_matrix": [[1,0,0],[0,1,0]]}]}"#)
                .contains("frames[0].transform_matrix: expected a 4x4 matrix"))
        #expect(error(#"{"fl_x": 30, "frames": [{"file_path": "../a.png", "transform_matrix": [[1,0,0,0],[0,1,0,0],[0,0,1,0],[0,0,0,1]]}]}"#)
                .contains("leaves the folder"))
        #expect(error(#"{"fl_x": 30, "frames": [{"file_path": "a.png", "transform_matrix": [[2,0,0,0],[0,1,0,0],[0,0,1,0],[0,0,0,1]]}]}"#)
                .contains("not a rotation"))
        #expect(error("not json").contains("transforms.json: is not JSON"))
    }
}
