import Foundation

/// An error of the AR cloud session: what `State.lastError` reports and what refused
/// calls throw.
public enum ARCloudError: Error, Sendable, Hashable, LocalizedError {
    /// The backend rejected the access token (HTTP 401). The session has shut down:
    /// remove the session view, obtain a new token and construct a new session.
    case invalidAccessToken
    /// The token is valid but may not use this map (HTTP 403).
    case accessDenied(String)
    /// The map does not exist on the backend.
    case mapNotFound(mapId: String)
    /// The backend kept failing transiently until the retry policy gave up.
    case backendUnavailable(String)
    /// The backend refused a request as malformed or unacceptable (a 4xx other than
    /// 401, 403 and 404).
    case requestRejected(String)
    /// The backend answered something this client cannot understand.
    case invalidResponse(String)
    /// The embedded localizer cannot serve in this build or configuration.
    case localizerUnavailable(String)
    /// A recorded frame's image could not be read.
    case frameUnavailable(frameId: String, reason: String)
    /// The instance has been shut down; construct a new one for a new session.
    case sessionShutDown
    /// The call needs the session host's view to have loaded first.
    case hostNotLoaded
    /// The session host has been removed (or replaced by a newer one) and no longer runs.
    case hostRemoved
    /// The call does not fit the session's setup (explained in the message).
    case invalidUsage(String)

    /// A sentence for the user: what happened and, where it helps, what to do.
    public var errorDescription: String? {
        switch self {
        case .invalidAccessToken:
            return "The access token was rejected by the VPS service; the session has ended. Start a new session with a valid token."
        case .accessDenied(let m):
            return "The access token may not use this map: \(m)"
        case .mapNotFound(let id):
            return "The map '\(id)' does not exist on the VPS service."
        case .backendUnavailable(let m):
            return "The VPS service is unavailable: \(m)"
        case .requestRejected(let m):
            return "The VPS service refused the request: \(m)"
        case .invalidResponse(let m):
            return "The VPS service sent an answer that could not be understood: \(m)"
        case .localizerUnavailable(let m):
            return "The embedded localizer is unavailable: \(m)"
        case .frameUnavailable(let id, let reason):
            return "The image of frame '\(id)' could not be read: \(reason)"
        case .sessionShutDown:
            return "This AR cloud session has been shut down; create a new configuration and session."
        case .hostNotLoaded:
            return "The session host's view has not loaded yet; call loadView() first."
        case .hostRemoved:
            return "The session host has been removed and no longer runs."
        case .invalidUsage(let m):
            return m
        }
    }

    /// The session-level meaning of a backend failure.
    init(backendError error: VPSBackendError) {
        switch error {
        case .unauthorized: self = .invalidAccessToken
        case .forbidden(let m): self = .accessDenied(m)
        case .mapNotFound(let id): self = .mapNotFound(mapId: id)
        case .rejected(_, let m), .invalidRequest(let m): self = .requestRejected(m)
        case .invalidResponse(let m): self = .invalidResponse(m)
        case .unavailable(let m): self = .localizerUnavailable(m)
        case .connectionFailed, .timedOut, .serverError, .throttled, .retriesExhausted:
            self = .backendUnavailable(error.description)
        }
    }
}
