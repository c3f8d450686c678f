import Foundation
import Geometry
import Testing
import Formats
import VPSModel

/// OpenSfM's ground_control_points.json as its documentation writes it, and the mistakes a
/// hand-edited one has: each refused with the file and the point named.
@Suite struct GroundControlPointsTests {
    static let good = """
        {"points": [
          {"id": "corner", "position": {"latitude": 52.519134104, "longitude": 13.400740745, "altitude": 12.08},
           "observations": [{"shot_id": "01.jpg", "projection": [0.0, 0.0]},
                            {"shot_id": "02.jpg", "projection": [0.5, 0.375]},
                            {"shot_id": "elsewhere.jpg", "projection": [0.1, 0.1]}],
           "note": "members arcloud does not use are ignored"},
          {"id": "kerb", "position": {"latitude": -33.8, "longitude": 151.2},
           "observations": [{"shot_id": "frame-b", "projection": [-0.5, -0.375]}]},
          {"id": "tie", "observations": []}
        ]}
        """

    static func frame(_ name: String, file: String) -> MapBuildFrame {
        MapBuildFrame(name: name, timestamp: 0, pose: .identity,
                      intrinsics: CameraIntrinsics(width: 640, height: 480, fx: 500, fy: 500, cx: 320, cy: 240),
                      imageURL: URL(fileURLWithPath: "/captures/frames/" + file))
    }

    @Test func readsTheDocumentedFormat() throws {
        let file = try GroundControlPoints(json: Data(Self.good.utf8), file: "gcp.json")
        #expect(file.points.map(\.id) == ["corner", "kerb", "tie"])
        let corner = file.points[0]
        #expect(corner.hasAltitude && corner.position?.height == 12.08 && corner.position?.latitude == 52.519134104)
        #expect(corner.observations.map(\.shotID) == ["01.jpg", "02.jpg", "elsewhere.jpg"])
        #expect(file.points[1].hasAltitude == false && file.points[1].position?.height == 0)
        #expect(file.points[2].position == nil && file.points[2].observations.isEmpty)
    }

    /// Normalized coordinates become pixels as OpenSfM's `denormalized_image_coordinates`
    /// computes them; an image is found by its frame's name or its file's name.
    @Test func turnsProjectionsIntoPixelsOfTheMatchedFrames() throws {
        let file = try GroundControlPoints(json: Data(Self.good.utf8), file: "gcp.json")
        let frames = [Self.frame("a", file: "01.jpg"), Self.frame("b", file: "02.jpg"), Self.frame("frame-b", file: "03.jpg")]
        let points = try file.controlPoints(for: frames)
        #expect(points[0].observations == [.init(frame: "a", pixel: SIMD2(319.5, 239.5)),
                                           .init(frame: "b", pixel: SIMD2(639.5, 479.5))])
        #expect(points[0].unmatchedImages == ["elsewhere.jpg"])
        #expect(points[1].observations == [.init(frame: "frame-b", pixel: SIMD2(-0.5, -0.5))])
        #expect(points[2].position == nil)
        // Inside the longer side's ±0.5 but below a landscape image's bottom edge.
        let low = try GroundControlPoints(json: Data("""
            {"points": [{"id": "low", "position": {"latitude": 1, "longitude": 2},
                         "observations": [{"shot_id": "01.jpg", "projection": [0, 0.45]}]}]}
            """.utf8), file: "gcp.json")
        let error = #expect(throws: DatasetImportError.self) { try low.controlPoints(for: frames) }
        #expect(error?.description.contains("'low'") == true && error?.description.contains("640x480") == true,
                "\(String(describing: error))")
    }

    @Test(arguments: [
        ("{\"points\": [", "is not JSON"),
        ("[1, 2]", "top level"),
        ("{\"gcps\": []}", "points: expected a list"),
        ("{\"points\": []}", "the list is empty"),
        ("{\"points\": [7]}", "points[0]: expected an object"),
        ("{\"points\": [{\"observations\": []}]}", "points[0].id"),
        (#"{"points": [{"id": "p", "position": {"latitude": "52.5", "longitude": 13.4}, "observations": []}]}"#,
         "points[0] 'p': position.latitude: expected a number"),
        (#"{"points": [{"id": "p", "position": {"latitude": 95, "longitude": 13.4}, "observations": []}]}"#,
         "points[0] 'p': position: latitude 95.0° is outside"),
        (#"{"points": [{"id": "p", "position": {"latitude": 52}, "observations": []}]}"#,
         "'p': position: latitude and longitude are required"),
        (#"{"points": [{"id": "p", "position": {"latitude": 52, "longitude": 4, "altitude": null}, "observations": []}]}"#,
         "'p': position.altitude: expected a number"),
        (#"{"points": [{"id": "p", "position": [52, 4], "observations": []}]}"#, "'p': position: expected an object"),
        (#"{"points": [{"id": "p", "position": {"latitude": 52, "longitude": 4}}]}"#, "'p': observations: expected a list"),
        (#"{"points": [{"id": "p", "observations": [{"projection": [0, 0]}]}]}"#, "'p': observations[0].shot_id"),
        (#"{"points": [{"id": "p", "observations": [{"shot_id": "a.jpg", "projection": [0, 0, 1]}]}]}"#,
         "'p': observations[0].projection: expected [x, y]"),
        (#"{"points": [{"id": "p", "observations": [{"shot_id": "a.jpg", "projection": [true, 0]}]}]}"#,
         "'p': observations[0].projection: expected [x, y]"),
        (#"{"points": [{"id": "p", "observations": [{"shot_id": "a.jpg", "projection": [812, 400]}]}]}"#,
         "'p': observations[0].projection [812.0, 400.0] lies outside every image"),
        (#"{"points": [{"id": "p", "observations": [{"shot_id": "a.jpg", "projection": [0, 0]}, {"shot_id": "a.jpg", "projection": [0.1, 0]}]}]}"#,
         "'p': observations[1]: a second observation in image 'a.jpg'"),
        (#"{"points": [{"id": "p", "observations": []}, {"id": "p", "observations": []}]}"#,
         "points[1]: id 'p' is given to an earlier point as well"),
    ])
    func refusesMalformedFilesNamingThePoint(json: String, expected: String) {
        let error = #expect(throws: DatasetImportError.self) {
            try GroundControlPoints(json: Data(json.utf8), file: "site/ground_control_points.json")
        }
        let message = error?.description ?? ""
        #expect(message.hasPrefix("site/ground_control_points.json: ") && message.contains(expected), "\(message)")
    }

    @Test func refusesWhatIsNotAFile() throws {
        let folder = FileManager.default.temporaryDirectory
        let error = #expect(throws: DatasetImportError.self) { try GroundControlPoints.load(from: folder) }
        #expect(error?.description.contains("ground_control_points.json") == true, "\(String(describing: error))")
    }
}
