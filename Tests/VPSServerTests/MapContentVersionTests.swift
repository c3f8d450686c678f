import Foundation
import Testing
import MapModel
import VPSModel
import VPSClient
import VPSServer
import Storage
import TestSupport

/// Every localize answer and `/v1/maps` entry names the map's content version (SHA-256
/// of the file), so a client sees a rollout.
@Suite struct MapContentVersionTests {
    private static func writeMap(_ name: String, section: String, to path: String) throws {
        let map = try VPSMap(metadata: MapMetadata(name: name, created: Date(timeIntervalSince1970: 0)),
                             scene: SceneContent(sections: [MapSection(id: section, name: section)]),
                             keyframes: [], points: MapPoints(), observations: [], vocabulary: nil)
        try map.write(to: path)
    }

    private static func fileDigest(_ path: String) throws -> String {
        SHA256.hex(SHA256.hash(try Data(contentsOf: URL(fileURLWithPath: path))))
    }

    @Test func answersAndListingCarryTheVersionOfTheServedFile() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("versions-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let shipped = PackageDirectory.root.appendingPathComponent("Maps/gallery.vpsmap")
        let served = directory.appendingPathComponent("gallery.vpsmap").path
        try FileManager.default.copyItem(atPath: shipped.path, toPath: served)
        let version = try Self.fileDigest(served)

        let engine = MapDirectoryEngine(directory: directory)
        let fixture = try EngineServer(engine: engine)
        defer { fixture.stop() }
        let client = fixture.client

        #expect(try await client.maps().map(\.version) == [version])
        let session = PackageDirectory.root.appendingPathComponent("Datasets/gallery-query-walk")
        let recorded = try RecordedSession.load(from: session)
        let frame = try [UInt8](Data(contentsOf: session.appendingPathComponent(recorded.frames[0].image)))
        let answer = try await client.localize(image: frame, request: LocalizeRequest(mapId: "gallery", intrinsics: recorded.camera))
        #expect(answer.mapVersion == version)
        #expect(answer.status == .localized && answer.matches ?? 0 >= answer.inliers)

        // A rollout replaces the file: the listing shows the new file's version at once;
        // this process keeps serving the map it loaded (and says so) until it restarts.
        let replacement = directory.appendingPathComponent("next.tmp").path
        try Self.writeMap("gallery", section: "v2", to: replacement)
        #expect(rename(replacement, served) == 0)                                 // as `mv` does
        let newVersion = try Self.fileDigest(served)
        #expect(newVersion != version)
        #expect(try await client.maps().map(\.version) == [version])          // loaded: what it serves
        let again = try await client.localize(image: frame, request: LocalizeRequest(mapId: "gallery", intrinsics: recorded.camera))
        #expect(again.mapVersion == version)

        let restarted = MapDirectoryEngine(directory: directory)
        #expect(try restarted.maps().map(\.version) == [newVersion])
    }

    @Test func versionsAreHashedOncePerFileState() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("state-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data("first".utf8).write(to: URL(fileURLWithPath: path))
        let versions = MapContentVersions()
        let first = try versions.version(ofFileAt: path)
        #expect(first == SHA256.hex(SHA256.hash(Array("first".utf8))))
        #expect(try versions.version(ofFileAt: path) == first)
        try Data("second, longer".utf8).write(to: URL(fileURLWithPath: path))
        #expect(try versions.version(ofFileAt: path) == SHA256.hex(SHA256.hash(Array("second, longer".utf8))))
        #expect(throws: (any Error).self) { try versions.version(ofFileAt: path + ".missing") }
    }
}
