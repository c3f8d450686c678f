import Localization
import Foundation
import Geometry
import Synchronization
import VPSModel
import VPSServer

/// A `LocalizationEngine` for HTTP lifecycle tests ONLY: it serves one map's scene and
/// answers every localization with a fixed pose. It does no localization; it lets a real
/// `VPSServer` (auth, HTTP, errors) sit behind the SDK before the localizer exists.
final class StubEngine: LocalizationEngine {
    static let mapId = "gallery"
    static let scene = SceneContent(sections: [MapSection(id: "main", name: "Main hall")])
    static let pose = Pose(rotation: Quaternion.identity, translation: SIMD3(1, 1.5, -2))

    private let calls = Atomic<Int>(0)
    var localizeCalls: Int { calls.load(ordering: .relaxed) }

    func maps() throws(LocalizationEngineError) -> [MapSummary] {
        [MapSummary(id: Self.mapId, name: "Gallery", sections: ["main"])]
    }

    func scene(mapId: String) throws(LocalizationEngineError) -> SceneContent {
        guard mapId == Self.mapId else { throw .unknownMap(mapId) }
        return Self.scene
    }

    func localize(image: [UInt8], request: LocalizeRequest,
                  cancellation: LocalizationCancellation) throws(LocalizationEngineError) -> LocalizeResponse {
        calls.add(1, ordering: .relaxed)
        guard request.mapId == Self.mapId else { throw .unknownMap(request.mapId) }
        return LocalizeResponse(status: .localized, mapId: request.mapId, pose: Self.pose, sectionId: "main",
                                inliers: 99, reprojectionError: 0.7)
    }

    var loadedMapCount: Int { 1 }
}

/// A real `VPSServer` on a loopback port with a temporary token store.
final class LocalVPSServer {
    let server: VPSServer
    let engine = StubEngine()
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
