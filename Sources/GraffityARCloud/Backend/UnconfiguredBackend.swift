import VPSModel

/// The backend of a configuration that names no VPS (no `serverURL` and no
/// `embeddedMapURL`). `GraffityARCloud.makeViewController` refuses such a session before
/// any request; this only answers a caller that reaches the backend some other way.
struct UnconfiguredBackend: VPSBackend {
    let problem: String

    func localize(_ request: LocalizationRequest) async throws -> LocalizationResponse {
        throw VPSBackendError.unavailable(problem)
    }

    func scene(mapId: String) async throws -> SceneContent {
        throw VPSBackendError.unavailable(problem)
    }
}
