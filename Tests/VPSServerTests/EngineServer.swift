import Foundation
import VPSClient
import VPSServer

/// A started server on an ephemeral loopback port over a given engine (a real
/// `MapDirectoryEngine`, say), with an in-memory token store and a client holding a token
/// valid for every map. Call `stop()` when done (`defer { fixture.stop() }`).
struct EngineServer {
    let server: VPSServer
    let client: VPSClient

    init(engine: any LocalizationEngine) throws {
        let store = try SQLiteTokenStore(path: ":memory:")
        let token = try store.create(name: "t").token
        server = VPSServer(engine: engine, tokens: store)
        try server.start()
        client = try VPSClient(baseURL: server.baseURL, token: token)
    }

    func stop() { server.stop() }
}
