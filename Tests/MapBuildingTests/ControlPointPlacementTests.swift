import Foundation
import Geodesy
import Geometry
import MapBuilding
import Testing
import VPSModel

/// Ground control points triangulated from the frames that see them, and each way one is
/// refused, with the real triangulator.
@Suite struct ControlPointPlacementTests {
    static let k = CameraIntrinsics(width: 640, height: 480, fx: 500, fy: 500, cx: 320, cy: 240)
    /// Cameras looking along +z from x = 0, 2 and 4 (and one 1 cm from the first).
    static let frames = [("a", 0.0), ("b", 2.0), ("c", 4.0), ("near-a", 0.01)].map { name, x in
        MapBuildFrame(name: name, timestamp: 0, pose: Pose(rotation: .identity, translation: SIMD3(x, 0, 0)), intrinsics: k,
                      imageURL: URL(fileURLWithPath: "/frames/\(name).png"))
    }
    static let somewhere = GeodeticPosition(latitude: 52.37, longitude: 4.89, height: 3)

    static func seen(_ point: SIMD3<Double>, in names: [String]) -> [ControlPoint.Observation] {
        names.map { name in
            let f = frames.first { $0.name == name }!
            return .init(frame: name, pixel: k.project(f.pose.inverse.apply(point))!)
        }
    }

    @Test func placesAPointSeenFromTwoPlacesAndRefusesTheRestWithReasons() {
        let p = SIMD3<Double>(1, -0.5, 10)
        var misclicked = Self.seen(p, in: ["a", "b", "c"])
        misclicked[2].pixel.x += 25
        let behind = [ControlPoint.Observation(frame: "a", pixel: SIMD2(270, 240)),  // ray (−0.1, 0, 1) from x = 0
                      ControlPoint.Observation(frame: "b", pixel: SIMD2(370, 240))]  // ray (0.1, 0, 1) from x = 2: they meet at z = −10
        let points = [
            ControlPoint(id: "good", position: Self.somewhere, hasAltitude: true, observations: Self.seen(p, in: ["a", "b", "c"])),
            ControlPoint(id: "unsurveyed", position: nil, hasAltitude: false, observations: Self.seen(p, in: ["a", "b"])),
            ControlPoint(id: "once", position: Self.somewhere, hasAltitude: true,
                         observations: Self.seen(p, in: ["a"]) + [.init(frame: "elsewhere", pixel: SIMD2(1, 1))]),
            ControlPoint(id: "parallel", position: Self.somewhere, hasAltitude: true,
                         observations: Self.seen(SIMD3(0, 0, 80), in: ["a", "near-a"])),
            ControlPoint(id: "behind", position: Self.somewhere, hasAltitude: true, observations: behind),
            ControlPoint(id: "misclicked", position: Self.somewhere, hasAltitude: true, observations: misclicked),
        ]
        let (placed, refused) = ControlPointPlacement().place(points, frames: Self.frames)
        #expect(placed.map(\.id) == ["good"])
        #expect(length(placed[0].mapPosition - p) < 1e-6 && placed[0].maxError < 1e-6, "\(placed)")
        let reasons = Dictionary(uniqueKeysWithValues: refused.map { ($0.id, $0.reason) })
        #expect(reasons["unsurveyed"] == "no surveyed position")
        #expect(reasons["once"]?.hasPrefix("seen in 1 of the build's frames") == true, "\(reasons)")
        #expect(reasons["parallel"]?.contains("nearly parallel") == true, "\(reasons)")
        #expect(reasons["behind"]?.contains("behind a camera") == true, "\(reasons)")
        #expect(reasons["misclicked"]?.contains("reprojection error") == true, "\(reasons)")
    }
}
