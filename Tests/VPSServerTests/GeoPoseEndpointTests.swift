import Foundation
import Geodesy
import Geometry
import Localization
import MapModel
import Storage
import TestSupport
import Testing
import VPSModel
import VPSServer

/// `POST /scrs/geopose` (the OSCP GeoPose protocol) on a real server over two georeferenced
/// copies of the shipped map 1 km apart: the phone's GPS reading picks the map, and the
/// answer is the GeoPose the in-process localizer gives.
@Suite(.serialized, .enabled(if: PackageDirectory.galleryMap != nil, "needs Maps/gallery.vpsmap"))
struct GeoPoseEndpointTests {
    static let here = GeodeticPosition(latitude: 52.37, longitude: 4.89, height: 2)
    /// 1 km east of `here`.
    static let there = LocalTangentFrame(origin: here).position(ofENU: SIMD3(1000, 0, 0))

    struct Fixture {
        let server: EngineServer
        let directory: URL
        let georeferences: [String: Georeference]
        let jpeg: [UInt8]
        let camera: CameraIntrinsics
        let local: LocalizationResult
    }

    static func fixture() throws -> Fixture {
        let directory = URL(fileURLWithPath: try makeScratchDirectory())
        var map = try #require(PackageDirectory.galleryMap)
        var georeferences: [String: Georeference] = [:]
        for (id, origin) in [("here", here), ("there", there)] {
            let g = try Georeference.manual(origin: origin, headingDegrees: 20)
            map.metadata.georeference = g
            try map.write(to: directory.appendingPathComponent("\(id).vpsmap").path)
            georeferences[id] = g
        }
        let dataset = PackageDirectory.root.appendingPathComponent("Datasets/gallery-query-walk")
        let session = try RecordedSession.load(from: dataset)
        let frame = session.frames[10]
        let jpeg = [UInt8](try Data(contentsOf: RecordedSession.imageURL(of: frame, in: dataset)))
        // The protocol carries no gravity: the in-process answer to compare with has none either.
        let local = try Localizer(map: map).localize(encoded: jpeg, intrinsics: session.camera)
        return Fixture(server: try EngineServer(engine: MapDirectoryEngine(directory: directory)), directory: directory,
                       georeferences: georeferences, jpeg: jpeg, camera: session.camera, local: local)
    }

    static func body(_ f: Fixture, gps: GeodeticPosition?, accuracy: Double = 10, model: String = "PINHOLE") throws -> [UInt8] {
        var readings: [String: Any] = [
            "cameraReadings": [[
                "timestamp": 1_733_380_000_000, "sensorId": "cam", "sequenceNumber": 1, "imageFormat": "JPG",
                "size": [f.camera.width, f.camera.height], "imageBytes": Data(f.jpeg).base64EncodedString(),
                "privacy": ["dataRetention": [], "dataAcceptableUse": [], "dataSanitizationApplied": [],
                            "dataSanitizationRequested": []],
                "params": ["model": model, "modelParams": [f.camera.fx, f.camera.fy, f.camera.cx, f.camera.cy]],
            ]],
        ]
        if let gps {
            readings["geolocationReadings"] = [["timestamp": 1_733_380_000_000, "sensorId": "gps", "latitude": gps.latitude,
                                                "longitude": gps.longitude, "altitude": gps.height, "accuracy": accuracy,
                                                "altitudeAccuracy": 20, "heading": 0, "speed": 0]]
        }
        let request: [String: Any] = ["id": "req-1", "timestamp": 1_733_380_000_000, "type": "geopose",
                                      "sensors": [["id": "cam", "type": "camera"], ["id": "gps", "type": "geolocation"]],
                                      "sensorReadings": readings]
        return [UInt8](try JSONSerialization.data(withJSONObject: request))
    }

    static func post(_ f: Fixture, _ body: [UInt8], token: String?) throws -> RawResponse {
        var head = "POST /scrs/geopose HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\n"
        if let token { head += "Authorization: Bearer \(token)\r\n" }
        head += "Content-Length: \(body.count)\r\nConnection: close\r\n\r\n"
        return try rawExchange(port: f.server.server.port, Array(head.utf8) + body, timeout: 600)
    }

    @Test func theReadingPicksTheMapAndTheAnswerIsTheLocalizersGeoPose() throws {
        let f = try Self.fixture()
        defer { f.server.stop(); try? FileManager.default.removeItem(at: f.directory) }
        let token = f.server.token
        let pose = try #require(f.local.pose, "\(f.local.reason ?? "")")
        for (id, gps) in [("there", Self.there), ("here", Self.here)] {
            // The reading 30 m off the map's origin, as a phone's in a street may be.
            let reading = LocalTangentFrame(origin: gps).position(ofENU: SIMD3(20, -22, 0))
            let r = try Self.post(f, try Self.body(f, gps: reading), token: token)
            #expect(r.status == 200, "\(r.body.prefix(300))")
            let answer = try JSONDecoder().decode(GeoPoseResponse.self, from: Data(r.body.utf8))
            #expect(answer.id == "req-1" && answer.type == "geopose")
            let expected = try #require(f.georeferences[id]).geoPose(cameraToMap: pose)
            let offset = LocalTangentFrame(origin: expected.position).enu(of: answer.geopose.position)
            #expect(length(offset) < 0.10, "\(id): \(offset)")
            #expect(answer.geopose.quaternion.angle(to: expected.quaternion) * 180 / .pi < 0.5)
            #expect(answer.accuracy.position > 0 && answer.accuracy.position < 1)
        }
    }

    @Test func aReadingFarFromEveryMapIsRefusedNotFollowed() throws {
        let f = try Self.fixture()
        defer { f.server.stop(); try? FileManager.default.removeItem(at: f.directory) }
        // Half-way between the maps: 500 m from each.
        let between = LocalTangentFrame(origin: Self.here).position(ofENU: SIMD3(500, 0, 0))
        let r = try Self.post(f, try Self.body(f, gps: between), token: f.server.token)
        #expect(r.status == 404 && r.body.contains("no_map_nearby"), "\(r.status) \(r.body.prefix(300))")
    }

    @Test func malformedRequestsAre400WithAReasonAndABadTokenIs401() throws {
        let f = try Self.fixture()
        defer { f.server.stop(); try? FileManager.default.removeItem(at: f.directory) }
        let token = f.server.token
        for (body, needle) in [(Array("{not json".utf8), "malformed_json"),
                               (Array("{\"id\": \"x\", \"sensorReadings\": {}}".utf8), "cameraReadings"),
                               (try Self.body(f, gps: Self.here, model: "FISHEYE"), "FISHEYE")] {
            let r = try Self.post(f, body, token: token)
            #expect(r.status == 400, "\(r.status) \(r.body.prefix(200))")
            #expect(r.body.contains("\"error\"") && r.body.contains(needle), "\(r.body.prefix(300))")
        }
        #expect(try Self.post(f, try Self.body(f, gps: Self.here), token: "not-a-token").status == 401)
        #expect(try Self.post(f, try Self.body(f, gps: Self.here), token: nil).status == 401)
    }

    @Test func aLocalizeRequestWithALocationAndNoMapIsAnsweredFromTheMapNearIt() async throws {
        let f = try Self.fixture()
        defer { f.server.stop(); try? FileManager.default.removeItem(at: f.directory) }
        let near = LocalTangentFrame(origin: Self.there).position(ofENU: SIMD3(-15, 25, 0))
        let answer = try await f.server.client.localize(image: f.jpeg, request: LocalizeRequest(
            mapId: "", intrinsics: f.camera, location: GPSReading(position: near, accuracy: 12)))
        #expect(answer.mapId == "there" && answer.status == .localized, "\(answer.mapId) \(answer.reason ?? "")")
        // Within the map the reading narrowed the search to the keyframes around it.
        #expect(answer.locationPrior == .narrowed)
        let expected = try #require(f.georeferences["there"]).geoPose(cameraToMap: try #require(f.local.pose))
        let geoPose = try #require(answer.geoPose)
        #expect(length(LocalTangentFrame(origin: expected.position).enu(of: geoPose.position)) < 0.10)
        // 500 m from both maps: refused.
        let between = LocalTangentFrame(origin: Self.here).position(ofENU: SIMD3(500, 0, 0))
        await #expect(throws: (any Error).self) {
            _ = try await f.server.client.localize(image: f.jpeg, request: LocalizeRequest(
                mapId: "", intrinsics: f.camera, location: GPSReading(position: between, accuracy: 12)))
        }
        // The map named, the reading 500 m off it: the prior is ignored, never followed; the
        // image places the frame where it is.
        let ignored = try await f.server.client.localize(image: f.jpeg, request: LocalizeRequest(
            mapId: "here", intrinsics: f.camera, location: GPSReading(position: between, accuracy: 12)))
        #expect(ignored.status == .localized && ignored.locationPrior == .outsideMap, "\(ignored.reason ?? "")")
        let pose = try #require(f.local.pose)
        #expect(length(try #require(ignored.pose).center - pose.center) < 0.01)
        // A hint in map coordinates works the same way, without a georeference.
        let hinted = try await f.server.client.localize(image: f.jpeg, request: LocalizeRequest(
            mapId: "here", intrinsics: f.camera, near: LocationPrior(center: pose.center + SIMD3(2, 0, 1), radius: 8)))
        #expect(hinted.status == .localized && hinted.locationPrior == .narrowed, "\(hinted.reason ?? "")")
    }
}
