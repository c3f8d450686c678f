import Foundation
import VPSClient
import VPSServer

/// A started server on an ephemeral loopback port over a given engine (a real
/// `MapDirectoryEngine`, say), with an in-memory token store and a client holding a token
/// valid for every map. Call `stop()` when done (`defer { fixture.stop() }`).
///
/// Its localization time budget is 600 s, not the 10 s default: these tests are about
/// what a real engine answers, and a real engine's first localization of a map includes
/// the map's load, which under AddressSanitizer took 18 s on a loaded 2-core machine.
/// The budget itself is tested with an engine whose duration the test controls
/// (`WorkerPoolTests`).
struct EngineServer {
    let server: VPSServer
    let client: VPSClient
    /// The bearer token the client holds (valid for every map).
    let token: String

    init(engine: any LocalizationEngine) throws {
        let store = try SQLiteTokenStore(path: ":memory:")
        token = try store.create(name: "t").token
        server = VPSServer(engine: engine, tokens: store,
                           configuration: VPSServerConfiguration(localizationBudgetSeconds: 600))
        try server.start()
        client = try VPSClient(baseURL: server.baseURL, token: token, options: Self.patientClient)
    }

    func stop() { server.stop() }

    /// The first localization loads the map inside the request. Under the sanitizers, with
    /// every suite running at once on 2 cores, that took over the client's default 30 s in
    /// CI; these tests are about answers, not latency, so the client waits as long as
    /// anything in the suite may take.
    static let patientClient = VPSClient.Options(connectTimeout: .seconds(30), requestTimeout: .seconds(300))
}
