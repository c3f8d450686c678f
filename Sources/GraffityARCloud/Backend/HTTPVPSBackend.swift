import Foundation
import VPSModel
import VPSClient

/// The arcloud VPS HTTP service as a `VPSBackend`, over the `VPSClient` module's libcurl
/// client (`POST /v1/localize`, `GET /v1/maps/{id}/scene`, bearer-token auth).
///
/// Each failure is classified once, for `RetryingBackend`: no answer (refused, reset,
/// dropped, timed out) and 5xx/408/429 are transient; 401 is `.unauthorized` (the session
/// turns it into `.invalidAccessToken` and shuts down); 403, 404 and other 4xx are terminal.
///
/// A libcurl transfer cannot be interrupted by task cancellation: a cancelled call runs
/// to its answer or its timeout on the client's own queue, and the session discards the
/// result.
public struct HTTPVPSBackend: VPSBackend {
    /// The service root (`http://host:port`).
    public let serverURL: URL
    private let client: Result<VPSClient, VPSClientError>

    /// - Parameters:
    ///   - serverURL: `http://host:port` of the service.
    ///   - accessToken: the bearer token; nil sends none (the service then answers 401).
    ///   - requestTimeout: time allowed for one exchange, connecting included.
    public init(serverURL: URL, accessToken: String?, requestTimeout: Duration = .seconds(10)) {
        self.serverURL = serverURL
        let options = VPSClient.Options(connectTimeout: min(.seconds(3), requestTimeout),
                                        requestTimeout: requestTimeout)
        do {
            client = .success(try VPSClient(baseURL: serverURL.absoluteString, token: accessToken, options: options))
        } catch {
            client = .failure(error)
        }
    }

    /// `POST /v1/localize` with the frame and its request JSON.
    public func localize(_ request: LocalizationRequest) async throws -> LocalizationResponse {
        let wire = LocalizeRequest(mapId: request.mapId, intrinsics: request.intrinsics, prior: request.prior,
                                   priorAccuracy: request.priorAccuracy,
                                   gravity: request.gravity, location: request.location)
        let answer: LocalizeResponse
        do {
            answer = try await client.get().localize(image: request.image.data, request: wire)
        } catch {
            throw Self.classify(error, mapId: request.mapId)
        }
        switch answer.status {
        case .localized:
            guard let pose = answer.pose else {
                throw VPSBackendError.invalidResponse("a localized answer without a pose")
            }
            return .localized(LocalizationFix(pose: pose, sectionId: answer.sectionId ?? "",
                                              inliers: answer.inliers, reprojectionError: answer.reprojectionError,
                                              accuracy: answer.accuracy, geoPose: answer.geoPose,
                                              geoAccuracy: answer.geoAccuracy))
        case .notLocalized:
            return .notLocalized(reason: answer.reason ?? "not localized")
        }
    }

    /// `GET /v1/maps/{id}/scene`.
    public func scene(mapId: String) async throws -> SceneContent {
        do {
            return try await client.get().scene(mapId: mapId)
        } catch {
            throw Self.classify(error, mapId: mapId)
        }
    }

    /// The backend meaning of a client failure.
    static func classify(_ error: VPSClientError, mapId: String) -> VPSBackendError {
        switch error {
        case .transport(let failure):
            return failure.kind == .timedOut ? .timedOut(failure.description) : .connectionFailed(failure.description)
        case .http(let status, let code, let message):
            return VPSBackendError(httpStatus: status, message: "\(code): \(message)", mapId: mapId)
                ?? .invalidResponse("HTTP \(status) \(code): \(message)")
        case .invalidResponse(let status, let message):
            return .invalidResponse("HTTP \(status): \(message)")
        case .invalidRequest(let message):
            return .invalidRequest(message)
        }
    }
}
