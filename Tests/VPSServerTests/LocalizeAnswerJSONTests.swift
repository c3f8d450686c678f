import Foundation
import Geodesy
import Geometry
import Testing
import VPSModel
@testable import VPSServer

/// The hand-written answer JSON must read back as exactly the value, and be the same JSON
/// object as Foundation's encoder makes.
@Suite struct LocalizeAnswerJSONTests {
    static let answers: [LocalizeResponse] = [
        LocalizeResponse(status: .localized, mapId: "gallery",
                         pose: Pose(rotation: Quaternion(x: -0.10637587351245642, y: -0.036602066552691555,
                                                         z: 0.9936032227319462, w: 0.00985383352938374),
                                    translation: SIMD3(13.940979287371807, 1.4961402615369486, -12.0)),
                         sectionId: "room-c", inliers: 535, reprojectionError: 1.2022885232454195,
                         timings: ["decode": 1.127004, "extract": 12.0, "total": 1e-05, "match": 0],
                         mapVersion: String(repeating: "a9", count: 32), matches: 609, usedPrior: false,
                         accuracy: PoseAccuracy(position: 0.031415926535897934, rotationDegrees: 0.7071067811865476)),
        LocalizeResponse(status: .notLocalized, mapId: "a \"quoted\"\nmap/ü\u{1}", inliers: 3,
                         reason: "too few inliers (3 < 30)\tand a \\ backslash", timings: [:]),
        LocalizeResponse(status: .localized, mapId: "m", pose: Pose(rotation: .identity, translation: SIMD3(0, -0.0, 5e-324)),
                         inliers: 0, reprojectionError: 0, usedPrior: true),
        LocalizeResponse(status: .localized, mapId: "geo", pose: Pose(rotation: .identity, translation: SIMD3(1, 2, 3)),
                         inliers: 120, accuracy: PoseAccuracy(position: 0.02, rotationDegrees: 0.5),
                         geoPose: GeoPose(position: GeodeticPosition(latitude: -33.856784, longitude: 151.215297, height: 12.25),
                                          quaternion: Quaternion(x: 0.5, y: -0.5, z: 0.5, w: 0.5)),
                         geoAccuracy: PoseAccuracy(position: 4.75, rotationDegrees: 1.25)),
    ]

    @Test(arguments: answers)
    func readsBackAsTheSameValueAndTheSameObjectAsJSONEncoder(_ answer: LocalizeResponse) throws {
        let bytes = try #require(LocalizeAnswerJSON.encode(answer))
        #expect(try JSONDecoder().decode(LocalizeResponse.self, from: Data(bytes)) == answer)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let foundation = try JSONSerialization.jsonObject(with: encoder.encode(answer)) as? NSDictionary
        let handWritten = try JSONSerialization.jsonObject(with: Data(bytes)) as? NSDictionary
        #expect(foundation != nil && foundation == handWritten)
    }

    @Test func aNonFiniteNumberIsLeftToTheEncoderFallback() {
        var answer = Self.answers[0]
        answer.reprojectionError = .nan
        #expect(LocalizeAnswerJSON.encode(answer) == nil)
        answer = Self.answers[0]
        answer.timings["total"] = .infinity
        #expect(LocalizeAnswerJSON.encode(answer) == nil)
    }
}
