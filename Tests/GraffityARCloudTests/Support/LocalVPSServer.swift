import Foundation
import Geometry
import ServerTestSupport
import VPSServer

/// A real `VPSServer` on a loopback port with a temporary token store.
final class LocalVPSServer {
    let server: VPSServer
    /// Serves the `TestOnlyEngine`'s maps and answers every localization with `pose`.
    let engine = TestOnlyEngine(answering: LocalVPSServer.pose)
    static let mapId = "gallery"
    static let pose = Pose(rotation: Quaternion.identity, translation: SIMD3(1, 1.5, -2))
    let tokens: SQLiteTokenStore

    /// A server on `port` (0: any free port) checking tokens against `tokens`.
    init(port: UInt16 = 0, tokens: SQLiteTokenStore) throws {
        self.tokens = tokens
        server = VPSServer(engine: engine, tokens: tokens,
                           configuration: VPSServerConfiguration(port: port, connectionTimeoutSeconds: 5))
        try server.start()
    }

    var url: URL { URL(string: server.baseURL)! }

    deinit { server.stop(gracePeriod: .seconds(1)) }

    /// A token store in a fresh temporary folder.
    static func makeTokenStore() throws -> SQLiteTokenStore {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sdk-vps-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return try SQLiteTokenStore(path: directory.appendingPathComponent("tokens.db").path)
    }
}
