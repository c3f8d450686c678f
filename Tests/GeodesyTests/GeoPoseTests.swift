import Foundation
import Geodesy
import Geometry
import Support
import Testing

@Suite struct GeoPoseTests {
    let origin = GeodeticPosition(latitude: 47.6205, longitude: -122.3493, height: 60)

    /// Heading 0: map +x north, +y up, so +z = x × y points east.
    private func northAligned() throws -> Georeference { try Georeference.manual(origin: origin, headingDegrees: 0) }

    /// A level camera looking east with the image upright is the identity (body x forward,
    /// y left, z up = east, north, up).
    @Test func levelCameraLookingEastIsTheIdentity() throws {
        let g = try northAligned()
        let camera = Pose.lookAt(eye: .zero, target: SIMD3(0, 0, 1))
        let pose = g.geoPose(cameraToMap: camera)
        #expect(pose.quaternion.angle(to: .identity) < 1e-12)
        #expect(abs(pose.position.latitude - origin.latitude) < 1e-12 && abs(pose.position.height - origin.height) < 1e-8)
    }

    /// Looking north is a +90° yaw about up; looking straight down points body x along −U.
    @Test func yawAndPitch() throws {
        let g = try northAligned()
        let north = g.geoPose(cameraToMap: Pose.lookAt(eye: .zero, target: SIMD3(1, 0, 0)))
        #expect(north.quaternion.angle(to: Quaternion(axis: SIMD3(0, 0, 1), angle: .pi / 2)) < 1e-12)
        let down = g.geoPose(cameraToMap: Pose.lookAt(eye: .zero, target: SIMD3(0, -1, 0), up: SIMD3(1, 0, 0)))
        #expect(length(down.quaternion.rotate(SIMD3(1, 0, 0)) - SIMD3(0, 0, -1)) < 1e-12)
        // The image's top (body z) points north, as the map's +x was "up" in the image.
        #expect(length(down.quaternion.rotate(SIMD3(0, 0, 1)) - SIMD3(0, 1, 0)) < 1e-12)
    }

    /// 50 km east of the origin, the origin's east points 0.45° above the camera's own
    /// horizon (the earth curves away below a straight line): the orientation is relative
    /// to ENU at the camera, found through ECEF.
    @Test func orientationIsRelativeToTheCamerasOwnTangentFrame() throws {
        let g = try northAligned()
        let camera = Pose.lookAt(eye: SIMD3(0, 0, 50_000), target: SIMD3(0, 0, 50_001))
        let pose = g.geoPose(cameraToMap: camera)
        let here = LocalTangentFrame(origin: pose.position), there = LocalTangentFrame(origin: origin)
        let originEastInECEF = there.enuToECEF * SIMD3(1, 0, 0)
        let expected = here.ecefToENU * originEastInECEF
        let forward = pose.quaternion.rotate(SIMD3(1, 0, 0))
        #expect(length(forward - expected) < 1e-12)
        #expect(expected.z > 0.0075 && expected.z < 0.0082, "pitch \(asin(expected.z) * 180 / .pi)°")
        #expect(abs(pose.position.longitude - origin.longitude - 0.665) < 0.01)
    }

    @Test func roundTripsThroughGeoPose() throws {
        var rng = SplitMix64(seed: 3)
        func unit() -> Double { rng.unit() * 2 - 1 }
        for _ in 0..<500 {
            let g = Georeference(origin: GeodeticPosition(latitude: unit() * 89.9, longitude: unit() * 180, height: unit() * 500),
                                 scale: 0.5 + rng.unit() * 1.5,
                                 rotation: Quaternion(axis: SIMD3(unit(), unit(), unit()) + SIMD3(0, 0, 0.01), angle: rng.unit() * 3),
                                 translation: SIMD3(unit(), unit(), unit()) * 1000, source: .gps)
            let camera = Pose(rotation: Quaternion(axis: SIMD3(unit(), unit(), unit()) + SIMD3(0.01, 0, 0), angle: rng.unit() * 3),
                              translation: SIMD3(unit(), unit(), unit()) * 3000)
            let back = g.cameraToMap(from: g.geoPose(cameraToMap: camera))
            // Matrices, not angles: acos near 1 resolves no better than 3e-8 rad.
            let a = back.rotation.matrix, b = camera.rotation.matrix
            let rotation = length(a.r0 - b.r0) + length(a.r1 - b.r1) + length(a.r2 - b.r2)
            #expect(length(back.translation - camera.translation) < 1e-6 && rotation < 1e-12,
                    "\(length(back.translation - camera.translation)) m, \(rotation)")
        }
    }

    @Test func jsonIsTheBasicQuaternionEncoding() throws {
        let pose = GeoPose(position: GeodeticPosition(latitude: 47.7, longitude: -122.3, height: 11.5), quaternion: .identity)
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        #expect(String(decoding: try encoder.encode(pose), as: UTF8.self)
            == #"{"position":{"h":11.5,"lat":47.7,"lon":-122.3},"quaternion":{"w":1,"x":0,"y":0,"z":0}}"#)
    }

    /// The standard's Basic-Quaternion instance (OGC 21-056r11), with an extra member as the
    /// permissive encoding allows.
    @Test func decodesTheStandardsExample() throws {
        let json = #"""
            {"position": {"lat": 47.7, "lon": -122.3, "h": 11.5},
             "quaternion": {"x": -0.17231894920559634, "y": 0.26775440295008673, "z": 0.7971382399657011,
                            "w": -0.513014995716408},
             "validTime": 1674198000}
            """#
        let pose = try JSONDecoder().decode(GeoPose.self, from: Data(json.utf8))
        #expect(pose.position == GeodeticPosition(latitude: 47.7, longitude: -122.3, height: 11.5))
        #expect(abs(pose.quaternion.z - 0.7971382399657011) < 1e-12 && abs(pose.quaternion.norm - 1) < 1e-15)
    }

    @Test func decodingRefusesBadGeoPoses() {
        let bad = [
            #"{"position": {"lat": 47.7, "lon": -122.3, "h": 11.5}, "quaternion": {"x": 0, "y": 0, "z": 0, "w": 0.5}}"#,
            #"{"position": {"lat": 95, "lon": -122.3, "h": 11.5}, "quaternion": {"x": 0, "y": 0, "z": 0, "w": 1}}"#,
            #"{"position": {"lat": 47.7, "lon": -122.3}, "quaternion": {"x": 0, "y": 0, "z": 0, "w": 1}}"#,
            #"{"position": {"lat": 47.7, "lon": -122.3, "h": 1}, "quaternion": [0, 0, 0, 1]}"#,
        ]
        for json in bad {
            #expect(throws: DecodingError.self) { try JSONDecoder().decode(GeoPose.self, from: Data(json.utf8)) }
        }
    }

    @Test func openCVAxesMapToForwardLeftUp() {
        let r = GeoPose.openCVCameraToBody
        #expect(r * SIMD3(0, 0, 1) == SIMD3(1, 0, 0))     // optical axis → forward
        #expect(r * SIMD3(1, 0, 0) == SIMD3(0, -1, 0))    // image right → −left
        #expect(r * SIMD3(0, 1, 0) == SIMD3(0, 0, -1))    // image down → −up
        #expect(r.determinant == 1)
    }
}
