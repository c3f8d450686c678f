import Foundation
import Geometry
import Support
import VPSModel
import VPSClient
import VPSServer

/// A real server on an ephemeral loopback port with a temporary token file holding one
/// token per case the tests need.
package final class ServerFixture {
    package let server: VPSServer
    package let store: SQLiteTokenStore
    package let engine: TestOnlyEngine
    package let directory: URL
    package let log = LogCapture()
    /// Valid for every map.
    package let allMaps: String
    /// Valid only for "lobby".
    package let lobbyOnly: String
    package let expired: String
    package let revoked: String

    /// The time budget is far beyond any test: tests hold localizations at a gate, and a
    /// starved machine must not turn that into a 503 (the budget has tests of its own).
    package init(configuration: VPSServerConfiguration = VPSServerConfiguration(port: 0, localizationBudgetSeconds: 600,
                                                                        connectionTimeoutSeconds: 5),
         engine: TestOnlyEngine = TestOnlyEngine()) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("vpsserver-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        store = try SQLiteTokenStore(path: directory.appendingPathComponent("tokens.db").path)
        allMaps = try store.create(name: "all").token
        lobbyOnly = try store.create(name: "lobby-only", maps: ["lobby"]).token
        expired = try store.create(name: "old", lifetime: 60, now: Date().addingTimeInterval(-3600)).token
        let r = try store.create(name: "gone")
        revoked = r.token
        try store.revoke(id: r.record.id)
        self.engine = engine
        let log = self.log
        server = VPSServer(engine: engine, tokens: store, configuration: configuration,
                           accessLog: AccessLog { line in log.lines.withLock { $0.append(line) } })
        try server.start()
    }

    deinit {
        server.stop(gracePeriod: .seconds(2))
        try? FileManager.default.removeItem(at: directory)
    }

    /// A client whose request timeout is far beyond any answer of the test engine: on a
    /// loaded 2-core machine a request can wait seconds for a thread, and a timeout there
    /// would be a false failure.
    package func client(_ token: String?) throws -> VPSClient {
        try VPSClient(baseURL: server.baseURL, token: token, options: .init(connectTimeout: .seconds(30), requestTimeout: .seconds(60)))
    }

    package static let intrinsics = CameraIntrinsics(width: 64, height: 48, fx: 60, fy: 60, cx: 32, cy: 24)

    package static func request(mapId: String = "gallery", intrinsics: CameraIntrinsics = ServerFixture.intrinsics) -> LocalizeRequest {
        LocalizeRequest(mapId: mapId, intrinsics: intrinsics,
                        prior: Pose(rotation: Quaternion.identity, translation: SIMD3(1, 2, 3)))
    }

    /// A minimal PNG header (signature + IHDR) of the given size: enough for the server's
    /// header check; the test engine never decodes pixels.
    package static func pngHeader(width: Int, height: Int) -> [UInt8] {
        func be32(_ v: Int) -> [UInt8] { [UInt8(v >> 24 & 255), UInt8(v >> 16 & 255), UInt8(v >> 8 & 255), UInt8(v & 255)] }
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + be32(13) + Array("IHDR".utf8)
            + be32(width) + be32(height) + [8, 2, 0, 0, 0] + [0, 0, 0, 0]
    }
}

/// Access log lines captured in memory.
package final class LogCapture: Sendable {
    package let lines = Locked<[String]>([])
}
