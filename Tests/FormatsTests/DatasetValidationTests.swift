import Foundation
import Geometry
import Testing
import Vision
import Formats
import TestSupport
import VPSModel
import Baselines

/// Every validation problem is reported with its kind and exact location.
@Suite struct DatasetValidationTests {
    /// Writes `json` as session.json (plus the fixture's frame images) and validates.
    private func problems(json: String, images: Bool = true) throws -> [DatasetProblem] {
        let dir = try ScratchDirectory()
        try DatasetFixtures.write(DatasetFixtures.session(), to: dir.url)
        if !images { try FileManager.default.removeItem(at: dir.url.appendingPathComponent("frames")) }
        try Data(json.utf8).write(to: dir.url.appendingPathComponent("session.json"))
        return SessionValidator.validate(directory: dir.url)
    }

    private func problems(_ edit: (inout RecordedSession) -> Void, imageWidth: Int? = nil) throws -> [DatasetProblem] {
        let dir = try ScratchDirectory()
        var session = DatasetFixtures.session()
        try DatasetFixtures.write(session, to: dir.url, imageWidth: imageWidth)
        edit(&session)
        try session.write(toDirectory: dir.url)
        return SessionValidator.validate(directory: dir.url)
    }

    private func fixtureJSON() throws -> String {
        String(decoding: try DatasetFixtures.session().encoded(), as: UTF8.self)
    }

    @Test func missingSessionFile() throws {
        let dir = try ScratchDirectory()
        let p = SessionValidator.validate(directory: dir.url)
        #expect(p.map(\.kind) == [.unreadableFile])
    }

    @Test func malformedJSONNamesTheBadField() throws {
        let bad = try fixtureJSON().replacingOccurrences(of: "\"timestamp\" : 0.1", with: "\"timestamp\" : \"soon\"")
        let p = try problems(json: bad)
        #expect(p.map(\.kind) == [.malformedJSON])
        #expect(p.first?.location == "session.json: frames[1].timestamp")

        let missing = try fixtureJSON().replacingOccurrences(of: "\"fx\" : 50,", with: "")
        let q = try problems(json: missing)
        #expect(q.first?.location == "session.json: camera.fx")

        let syntax = try problems(json: "{\"version\": 1, \"name\": ")
        #expect(syntax.map(\.kind) == [.malformedJSON])
    }

    @Test func unknownVersion() throws {
        let p = try problems(json: try fixtureJSON().replacingOccurrences(of: "\"version\" : 1", with: "\"version\" : 7"))
        #expect(p.map(\.kind) == [.unsupportedVersion])
        #expect(p.first?.message.contains("7") == true)
    }

    @Test func nonUnitQuaternion() throws {
        // The third frame's odometry gets a quaternion of norm 2.
        var root = try #require(try JSONSerialization.jsonObject(with: DatasetFixtures.session().encoded()) as? [String: Any])
        var frames = try #require(root["frames"] as? [[String: Any]])
        var odometry = try #require(frames[2]["odometry"] as? [String: Any])
        odometry["q"] = [0.0, 0.0, 0.0, 2.0]
        frames[2]["odometry"] = odometry
        root["frames"] = frames
        let json = String(decoding: try JSONSerialization.data(withJSONObject: root), as: UTF8.self)
        let p = try problems(json: json)
        #expect(p.map(\.kind) == [.nonUnitQuaternion])
        #expect(p.first?.location == "session.json: frames[2].odometry.q")
    }

    @Test func invalidIntrinsics() throws {
        let p = try problems { $0.camera.cx = 500 }
        #expect(p.map(\.kind) == [.invalidCamera])
        #expect(p.first?.location == "session.json: camera")
    }

    @Test func intrinsicsThatDoNotFitTheStoredImages() throws {
        let p = try problems({ _ in }, imageWidth: 80)
        #expect(p.map(\.kind) == [.imageSizeMismatch, .imageSizeMismatch, .imageSizeMismatch])
        #expect(p.first?.location == "frames/000000.jpg")
        #expect(p.first?.message.contains("80x48") == true)
    }

    @Test func duplicateIdsAndNonMonotonicTimestamps() throws {
        let p = try problems {
            $0.frames[2].id = $0.frames[0].id
            $0.frames[2].image = $0.frames[0].image
            $0.frames[1].timestamp = 0
        }
        #expect(Set(p.map(\.kind)) == [.duplicateFrameId, .nonMonotonicTimestamp])
        #expect(p.contains { $0.kind == .duplicateFrameId && $0.location == "session.json: frames[2].id" })
        #expect(p.contains { $0.kind == .nonMonotonicTimestamp && $0.location == "session.json: frames[1].timestamp" })
    }

    @Test func missingAndUnreadableFrameImages() throws {
        let p = try problems { $0.frames[1].image = "frames/nowhere.jpg" }
        #expect(p.map(\.kind) == [.missingFrameImage])
        #expect(p.first?.location == "frames/nowhere.jpg")

        let dir = try ScratchDirectory()
        try DatasetFixtures.write(DatasetFixtures.session(), to: dir.url)
        try Data("garbage".utf8).write(to: dir.url.appendingPathComponent("frames/000001.jpg"))
        #expect(SessionValidator.validate(directory: dir.url).map(\.kind) == [.unreadableFrameImage])
    }

    /// Every frame image is decoded in full: a header alone, a bad checksum and a cut file
    /// all fail, each named by its file.
    @Test func framesThatDoNotDecodeInFull() throws {
        let dir = try ScratchDirectory()
        var session = DatasetFixtures.session()
        for i in session.frames.indices { session.frames[i].image = String(format: "frames/%06d.png", i) }
        try session.write(toDirectory: dir.url)
        try FileManager.default.createDirectory(at: dir.url.appendingPathComponent("frames"), withIntermediateDirectories: true)
        let png = try SyntheticImages.encode(try SyntheticImages.texture(width: 64, height: 48), as: .png)
        var badCRC = png
        badCRC[29] ^= 0xFF                       // the IHDR chunk's checksum
        let files: [[UInt8]] = [badCRC, Array(png.prefix(png.count / 2)), [UInt8](DatasetFixtures.pngHeader(width: 64, height: 48))]
        for (f, bytes) in zip(session.frames, files) { try Data(bytes).write(to: dir.url.appendingPathComponent(f.image)) }
        let p = SessionValidator.validate(directory: dir.url)
        #expect(p.map(\.kind) == [.unreadableFrameImage, .unreadableFrameImage, .unreadableFrameImage], "\(p)")
        #expect(p.map(\.location) == session.frames.map(\.image))
        #expect(p.allSatisfy { $0.message.contains("does not decode") }, "\(p)")
        // The intact file passes.
        try Data(png).write(to: dir.url.appendingPathComponent(session.frames[0].image))
        #expect(SessionValidator.validate(directory: dir.url).count == 2)
    }

    @Test func absurdCameraValuesAreRefused() throws {
        let focal = try problems { $0.camera.fx = 1e-300 }
        #expect(focal.map(\.kind) == [.invalidCamera] && focal.first?.message.contains("1° to 179°") == true, "\(focal)")
        let distortion = try problems { $0.camera.distortion = [1e300, 0, 0, 0] }
        #expect(distortion.map(\.kind) == [.invalidCamera] && distortion.first?.message.contains("0.1× to 10×") == true, "\(distortion)")
    }

    @Test func aScriptLongerThanTheBoundIsRefusedWhereItIsRead() throws {
        let taps = (0...ScriptLimits.maxActions).map { ScriptAction(time: Double($0) * 0.001, action: .tap(x: 1, y: 1)) }
        let p = try problems { $0.script = taps }
        #expect(p.map(\.kind) == [.scriptTooLong], "refused while session.json is decoded: \(p)")
        #expect(p.first?.location == "session.json: script" && p.first?.message.contains("at most 10000") == true, "\(p)")
        // A session built in memory is held to the same bound.
        var session = DatasetFixtures.session()
        session.script = taps
        #expect(session.contentProblems.map(\.kind) == [.scriptTooLong])
        session.script = Array(taps.prefix(ScriptLimits.maxActions))
        #expect(session.contentProblems.isEmpty)
    }

    @Test func imagePathsMustStayInsideTheSession() throws {
        let p = try problems { $0.frames[0].image = "../elsewhere.jpg"; $0.frames[1].image = "/etc/passwd" }
        #expect(p.map(\.kind) == [.imagePathOutsideSession, .imagePathOutsideSession])
    }

    @Test func emptySession() throws {
        let p = try problems { $0.frames = [] }
        #expect(p.map(\.kind) == [.noFrames])
    }

    @Test func odometryThatIsNotGravityAlignedIsReportedOnce() throws {
        let tilt = Quaternion(axis: SIMD3(1, 0, 0), angle: 10 * .pi / 180)
        let p = try problems { s in
            for i in 1..<s.frames.count { s.frames[i].odometry!.rotation = tilt * s.frames[i].odometry!.rotation }
        }
        #expect(p.map(\.kind) == [.odometryNotGravityAligned])
        #expect(p.first?.location == "session.json: frames[1].odometry")
        #expect(p.first?.message.contains("2 of 3 frames") == true)
        // Yaw drift alone (any angle about +y) keeps gravity: no problem.
        let yaw = Quaternion(axis: SIMD3(0, 1, 0), angle: 2.5)
        #expect(try problems { s in s.frames[0].odometry!.rotation = yaw * s.frames[0].odometry!.rotation }.isEmpty)
    }

    @Test func timeTheReplayClockCannotHold() throws {
        let p = try problems { $0.frames[1].timestamp = 1e308 }
        #expect(p.map(\.kind) == [.invalidTime])
        #expect(p.first?.location == "session.json: frames[1].timestamp")
    }

    @Test func everyKindIsCovered() {
        // Keeps this suite honest when a kind is added.
        #expect(DatasetProblem.Kind.allCases.count == 15)
    }
}
