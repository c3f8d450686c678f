import Foundation
import Geometry
import Testing
import Formats
import TestSupport
import VPSModel

/// The binary reader against models pycolmap wrote (scripts/make-colmap-fixtures.py).
@Suite("COLMAP binary reader")
struct COLMAPBinaryReaderTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures/COLMAP")

    struct Expected: Decodable {
        struct Camera: Decodable { var id: Int; var model: String; var width: Int; var height: Int; var params: [Double] }
        struct Image: Decodable { var id: Int; var name: String; var camera: Int; var qvec: [Double]; var tvec: [Double] }
        var cameras: [Camera]
        var images: [Image]
    }

    static func expected() throws -> Expected {
        try JSONDecoder().decode(Expected.self, from: Data(contentsOf: fixtures.appendingPathComponent("expected.json")))
    }

    @Test func readsWhatPycolmapWrote() throws {
        let model = try COLMAPModel.load(from: Self.fixtures.appendingPathComponent("model-bin"))
        #expect(model.format == .binary)
        let expected = try Self.expected()
        #expect(model.cameras.count == expected.cameras.count)
        for c in expected.cameras {
            let read = try #require(model.cameras[c.id])
            #expect(read.model == c.model && read.width == c.width && read.height == c.height && read.params == c.params)
        }
        #expect(model.images.map(\.id) == expected.images.map(\.id).sorted())
        for e in expected.images {
            let im = try #require(model.images.first { $0.id == e.id })
            #expect(im.name == e.name && im.cameraId == e.camera)
            let q = Quaternion(x: e.qvec[1], y: e.qvec[2], z: e.qvec[3], w: e.qvec[0])
            let truth = Pose(rotation: q, translation: SIMD3(e.tvec[0], e.tvec[1], e.tvec[2]))
            let err = im.worldToCamera.error(to: truth)
            #expect(err.translation < 1e-12 && err.rotationDegrees < 1e-9, "image \(e.id)")
        }
        // Camera 2 (OPENCV) as arcloud intrinsics; camera 4 (fisheye) refused by name.
        #expect(try model.intrinsics(of: model.images.first { $0.id == 2 }!)
                == CameraIntrinsics(width: 64, height: 48, fx: 50.5, fy: 50.25, cx: 31.5, cy: 23.5,
                                    distortion: [0.1, -0.02, 0.001, 0.002]))
        #expect {
            try model.intrinsics(of: model.images.first { $0.id == 9 }!)
        } throws: { "\($0)".contains("cameras.bin") && "\($0)".contains("OPENCV_FISHEYE") }
    }

    /// pycolmap's text export of the same model reads the same through the text reader.
    @Test func binaryAndTextExportsAgree() throws {
        let binary = try COLMAPModel.load(from: Self.fixtures.appendingPathComponent("model-bin"))
        let text = try COLMAPModel.load(from: Self.fixtures.appendingPathComponent("model-txt"))
        #expect(text.format == .text)
        #expect(binary.images.map(\.name) == text.images.map(\.name))
        #expect(binary.images.map(\.cameraId) == text.images.map(\.cameraId))
        for (b, t) in zip(binary.images, text.images) {
            let e = b.worldToCamera.error(to: t.worldToCamera)
            #expect(e.translation < 1e-9 && e.rotationDegrees < 1e-6)
        }
        for (id, camera) in binary.cameras {
            #expect(text.cameras[id]?.params == camera.params && text.cameras[id]?.model == camera.model)
        }
    }

    /// Damaged files: every cut of images.bin and a non-finite value are errors naming the
    /// file, never a crash or a silently shorter model.
    @Test func damagedFilesAreErrorsNamingTheFile() throws {
        let bytes = try Data(contentsOf: Self.fixtures.appendingPathComponent("model-bin/images.bin"))
        for cut in stride(from: 0, to: bytes.count, by: 3) {
            #expect(throws: DatasetImportError.self) { try COLMAPBinaryReader.parseImages(bytes.prefix(cut), file: "images.bin") }
        }
        #expect(throws: DatasetImportError.self) { try COLMAPBinaryReader.parseImages(bytes + Data([0]), file: "images.bin") }
        // The first image's tx (after count 8, id 4, qvec 32 bytes) set to +inf.
        var inf = [UInt8](bytes)
        withUnsafeBytes(of: Double.infinity.bitPattern.littleEndian) { inf.replaceSubrange(44..<52, with: $0) }
        #expect {
            try COLMAPBinaryReader.parseImages(Data(inf), file: "images.bin")
        } throws: { "\($0)" == "images.bin: image record 1, byte 44: pose value inf is not finite" }
        // A count no file could hold is refused before anything is allocated.
        var huge = [UInt8](bytes)
        huge.replaceSubrange(0..<8, with: [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x7F])
        #expect {
            try COLMAPBinaryReader.parseImages(Data(huge), file: "images.bin")
        } throws: { "\($0)".hasPrefix("images.bin: header, byte 0: says 9223372036854775807 images") }
        let cameras = try Data(contentsOf: Self.fixtures.appendingPathComponent("model-bin/cameras.bin"))
        for cut in stride(from: 0, to: cameras.count, by: 5) {
            #expect(throws: DatasetImportError.self) { try COLMAPBinaryReader.parseCameras(cameras.prefix(cut), file: "cameras.bin") }
        }
    }

    /// `map build --colmap` and `dataset import-colmap` share this reader: the importer
    /// reads the binary fixture (images are tiny PNGs made here).
    @Test func importerReadsTheBinaryModel() throws {
        let project = try ScratchDirectory("colmap-bin-import"), out = try ScratchDirectory("colmap-bin-out")
        let model = project.url.appendingPathComponent("sparse/0")
        try FileManager.default.createDirectory(at: model.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: Self.fixtures.appendingPathComponent("model-bin"), to: model)
        for name in ["a.png", "sub/b.png", "c.png", "fish.png"] {
            try DatasetImportTests.writePNG(project.url.appendingPathComponent("images/\(name)"), width: 64, height: 48)
        }
        let r = try COLMAPImporter().importModel(from: model, images: COLMAPModel.defaultImageFolder(for: model),
                                                 to: out.url, name: "bin")
        #expect(r.format == .binary)
        #expect(r.session.frames.map(\.id) == ["a", "c"])   // camera 1, the most used
        #expect(r.session.camera == CameraIntrinsics(width: 64, height: 48, fx: 50, fy: 51, cx: 32, cy: 24))
        #expect(r.skipped == 2)
        #expect(SessionValidator.validate(directory: out.url).isEmpty)
    }
}
