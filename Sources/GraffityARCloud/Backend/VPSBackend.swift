import VPSModel

/// The one thing the session needs from a visual positioning service: localize a camera
/// frame against a map, and hand out the map's scene content.
///
/// Two real implementations ship: `EmbeddedVPSBackend` (the in-process localizer, used
/// when `Configuration.serverURL` is nil) and `HTTPVPSBackend` (the arcloud HTTP service).
/// The session wraps whichever it uses in a `RetryingBackend`, so an implementation
/// reports each failure once, as a `VPSBackendError` that says whether it is transient.
///
/// Implementations must honour task cancellation where they can (the session cancels a
/// request in flight on `reset()` and `shutdown()`); a result that arrives after
/// cancellation is discarded either way.
public protocol VPSBackend: Sendable {
    /// Localizes one frame. A frame that simply does not match is a normal answer
    /// (`.notLocalized`), not an error.
    /// - Throws: `VPSBackendError` for failures of the service itself; `CancellationError`.
    func localize(_ request: LocalizationRequest) async throws -> LocalizationResponse

    /// The AR objects, sections and navigation graph of a map.
    /// - Throws: `VPSBackendError` (`.mapNotFound` for an unknown map); `CancellationError`.
    func scene(mapId: String) async throws -> SceneContent
}
