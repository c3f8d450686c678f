import Foundation
import Testing

/// `arcloud simulate` run as a user (or CI) would: JSON lines, summary, exit status.
@Suite("arcloud simulate")
struct SimulateCommandTests {
    static let root = ArcloudProcess.packageRoot
    static let session = "Datasets/gallery-query-walk"
    static let map = "Maps/gallery.vpsmap"
    static let script = "Datasets/gallery-query-walk/script.json"

    /// Every stdout line as a JSON object, in order.
    static func lines(_ stdout: String) throws -> [[String: Any]] {
        try stdout.split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "not a JSON object: \(line)")
        }
    }

    static func events(_ lines: [[String: Any]]) -> [String] {
        lines.filter { $0["kind"] as? String == "event" }.compactMap { $0["event"] as? String }
    }

    /// A minimal session folder (its frames are never read in the tests that use it).
    static func tinySession() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("simulate-session-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let json = """
            {"version": 1, "name": "tiny",
             "camera": {"width": 640, "height": 480, "fx": 500, "fy": 500, "cx": 320, "cy": 240, "distortion": []},
             "frames": [{"id": "f0", "timestamp": 0, "image": "frames/f0.jpg"},
                        {"id": "f1", "timestamp": 0.5, "image": "frames/f1.jpg"}]}
            """
        try Data(json.utf8).write(to: dir.appendingPathComponent("session.json"))
        return dir
    }

    @Test("usage mistakes exit 2 with one line")
    func usageMistakes() throws {
        let session = try Self.tinySession().path
        for args in [["simulate", session],
                     ["simulate", session, "--map", Self.map, "--clock", "sometimes"],
                     ["simulate", session, "--map", Self.map, "--expect", "localized,happy"],
                     ["simulate", session, "--map", Self.map, "--token", "arc_x"],
                     ["simulate", session, "--map", "gallery", "--server", "ftp://example.com"],
                     ["simulate", session, "--map", Self.map, "--interval", "0"]] {
            let r = try ArcloudProcess.run(args)
            #expect(r.status == 2, "\(args): \(r.stderr)")
            #expect(r.stderr.split(separator: "\n").count == 1)
        }
        let missing = try ArcloudProcess.run(["simulate", "/nonexistent/session", "--map", Self.map])
        #expect(missing.status == 1)
    }

    @Test("an invalid token ends the session in invalidAccessToken and shutdown, with exit status 1")
    func invalidToken() throws {
        let maps = FileManager.default.temporaryDirectory.appendingPathComponent("simulate-maps-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: maps, withIntermediateDirectories: true)
        let server = try SimulateServer(maps: maps)
        defer { server.stop() }
        let r = try ArcloudProcess.run(["simulate", try Self.tinySession().path, "--map", "gallery",
                                        "--server", server.url, "--token", "arc_not-a-token-this-server-issued"])
        #expect(r.status == 1)
        let lines = try Self.lines(r.stdout)
        let failure = try #require(lines.first { $0["event"] as? String == "localization.failed" })
        #expect((failure["error"] as? [String: Any])?["code"] as? String == "invalidAccessToken")
        let states = lines.filter { $0["kind"] as? String == "state" }
        // Failed with the error, then the reset snapshot of the shutdown (keeping the error).
        #expect(states.suffix(2).map { $0["vpsState"] as? String } == ["failed", "notStarted"])
        #expect(states.suffix(2).allSatisfy {
            ($0["lastError"] as? [String: Any])?["code"] as? String == "invalidAccessToken"
        })
        let summary = try #require(lines.last)
        #expect(summary["shutDown"] as? Bool == true)
        #expect(summary["exitStatus"] as? Int == 1)
        #expect(r.stderr.contains("error: invalidAccessToken"))
    }
}
