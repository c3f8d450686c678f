import Foundation
import Testing
import Formats
import TestSupport

@Suite struct TUMCameraTests {
    @Test func aPresetOrAPinholeButNotBoth() throws {
        let nowhere = URL(fileURLWithPath: "/nonexistent")
        let fr1 = try TUMImporter.camera(preset: "fr1", fx: nil, fy: nil, cx: nil, cy: nil, distortion: nil, size: nil,
                                         sequence: nowhere)
        #expect(fr1 == TUMImporter.presets["fr1"])
        let pinhole = try TUMImporter.camera(preset: nil, fx: 500, fy: 500, cx: 320, cy: 240, distortion: nil,
                                             size: (width: 800, height: 600), sequence: nowhere)
        #expect(pinhole.width == 800 && pinhole.height == 600 && pinhole.fx == 500)
        func conflict(preset: String?, fx: Double?, fy: Double?) -> String? {
            do {
                _ = try TUMImporter.camera(preset: preset, fx: fx, fy: fy, cx: 1, cy: 1, distortion: nil, size: nil,
                                           sequence: nowhere)
                return nil
            } catch { return error.description }
        }
        #expect(conflict(preset: "fr1", fx: 500, fy: nil) == "give either --camera or --fx/--fy/--cx/--cy, not both")
        #expect(conflict(preset: nil, fx: 500, fy: nil) == "missing --camera or --fy")
    }

    @Test func aPinholeCameraTakesTheSizeOfTheFirstListedImage() throws {
        let dir = try ScratchDirectory("tum-camera")
        try "# color images\n1.0 rgb/1.png\n".write(to: dir.url.appendingPathComponent("rgb.txt"), atomically: true, encoding: .utf8)
        try FileManager.default.createDirectory(at: dir.url.appendingPathComponent("rgb"), withIntermediateDirectories: true)
        try DatasetImportTests.writePNG(dir.url.appendingPathComponent("rgb/1.png"), width: 40, height: 30)
        let camera = try TUMImporter.camera(preset: nil, fx: 30, fy: 30, cx: 20, cy: 15, distortion: nil, size: nil,
                                            sequence: dir.url)
        #expect(camera.width == 40 && camera.height == 30)
    }
}
