import Foundation
import Testing
@testable import Geometry

/// `CameraIntrinsics.problem` is the one check every reader of intrinsics makes (sessions,
/// maps, imports, HTTP requests): these are its bounds.
@Suite struct CameraIntrinsicsTests {
    static let vga = CameraIntrinsics(width: 640, height: 480, fx: 525, fy: 525, cx: 319.5, cy: 239.5)

    @Test func aFocalLengthMustGiveAFieldOfViewOfOneTo179Degrees() throws {
        #expect(Self.vga.problem == nil)
        var k = Self.vga
        k.fx = 1e-300
        let tiny = try #require(k.problem)
        #expect(tiny.contains("fx = 1e-300 px gives a horizontal field of view of 180°") && tiny.contains("1° to 179°"), "\(tiny)")
        // The bounds' focal lengths for this image, as the message gives them: 2.793 and 36668 px.
        #expect(tiny.contains("fx from 2.793 to 36668 px"), "\(tiny)")
        k.fx = 2.8
        #expect(k.problem == nil, "178.9°: wide, but a pinhole can")
        k.fx = 36_600
        #expect(k.problem == nil, "1.002°")
        k.fx = 36_700
        #expect(k.problem?.contains("field of view of 0.9991°") == true, "\(k.problem ?? "")")
        k = Self.vga
        k.fy = 1e300
        #expect(k.problem?.contains("fy = 1e+300 px gives a vertical field of view") == true, "\(k.problem ?? "")")
    }

    @Test func distortionMustDescribeALens() throws {
        var k = Self.vga
        // The TUM RGB-D fr1 calibration: a real lens, within a few percent everywhere.
        k.distortion = [0.2624, -0.9531, -0.0054, 0.0026, 1.1633]
        #expect(k.problem == nil)
        k.distortion = [-0.28, 0.07, 0.001, -0.0005, 0.0]
        #expect(k.problem == nil)
        k.distortion = [1e300, 0, 0, 0]
        let huge = try #require(k.problem)
        #expect(huge.contains("scales the distance from the principal point by inf") && huge.contains("0.1× to 10×"), "\(huge)")
        // Strong barrel distortion that turns back on itself before the corners: it folds.
        k.distortion = [-1.2, 0, 0, 0]
        let folded = try #require(k.problem)
        #expect(folded.contains("folds the image"), "\(folded)")
        k.distortion = [0, 0, 50, 0]
        #expect(k.problem != nil, "tangential terms count too")
        k.distortion = [1e300, -1e300, 0, 0]
        #expect(k.problem != nil, "inf - inf is no lens either")
    }
}
