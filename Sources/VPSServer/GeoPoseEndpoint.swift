import Foundation
import Geometry
import Geodesy
import VPSModel

/// `POST /scrs/geopose`, the OSCP GeoPose protocol: the request is JSON (`GeoPoseRequest`),
/// the image rides in it as base64, and the map is chosen by the phone's GPS reading
/// (`GeoMapChoice`). The answer is a `GeoPoseResponse`; a request that is not the
/// protocol's is 400 with the reason, a frame no map near the reading places is 404
/// (`no_map_nearby`) or 422 (`not_localized`, with the localizer's reason).
extension RequestHandler {
    func prepareGeoPose(_ state: RequestState) throws(APIError) -> LocalizationJob {
        let request: GeoPoseRequest
        do {
            request = try Self.geoPoseDecoder.decode(GeoPoseRequest.self, from: Data(state.body))
        } catch {
            throw .badRequest("malformed_json", "the body is not a GeoPose request: \(Self.describe(error))")
        }
        state.body = []
        guard !request.id.isEmpty, request.id.count <= 200 else { throw .badRequest("bad_request", "id must be 1 to 200 characters") }
        let intrinsics: CameraIntrinsics
        switch request.intrinsics() {
        case .success(let i): intrinsics = i
        case .failure(let why): throw .badRequest("bad_request", why.description)
        }
        let image: [UInt8]
        switch request.image() {
        case .success(let bytes): image = bytes
        case .failure(let why): throw .badRequest("bad_request", why.description)
        }
        try checkImage(image, for: intrinsics)
        let (first, others) = try mapsNear(request.bestGeolocation, state)
        state.mapId = first
        return LocalizationJob(image: image, request: LocalizeRequest(mapId: first, intrinsics: intrinsics,
                                                                       location: request.bestGeolocation),
                               otherMaps: others, geoPoseRequestId: request.id)
    }

    /// The georeferenced maps the token may use within reach of `reading` (`GeoMapChoice`):
    /// the nearest, and the others in the order they are tried. Without a reading, the
    /// georeferenced maps. 404 `no_map_nearby` when there is none.
    func mapsNear(_ reading: GPSReading?, _ state: RequestState) throws(APIError) -> (first: String, others: [String]) {
        let maps = try engineCall { () throws(LocalizationEngineError) in try engine.maps() }
            .filter { state.grant?.allows(mapId: $0.id) ?? true }
        let candidates = GeoMapChoice(viewingReach: configuration.geoViewingReachMetres).candidates(maps, reading: reading)
        guard let first = candidates.first else {
            let why = reading.map { r in
                String(format: "no georeferenced map lies within reach of the GPS reading (%.6f, %.6f, accuracy %.0f m)",
                       r.position.latitude, r.position.longitude, r.accuracy)
            } ?? "the service holds no georeferenced map"
            throw APIError(status: 404, code: "no_map_nearby", message: why)
        }
        return (first, Array(candidates.dropFirst()))
    }

    /// The protocol's answer for a localizer answer.
    static func geoPoseAnswer(_ answer: LocalizeResponse, requestId: String) -> (HTTPResponseMessage, outcome: String) {
        guard answer.status == .localized, let geoPose = answer.geoPose, let accuracy = answer.geoAccuracy else {
            let e = APIError.unprocessable("not_localized", answer.reason.map { "no map near the reading places the image: \($0)" }
                                           ?? "no map near the reading places the image")
            return (e.response, e.code)
        }
        let response = GeoPoseResponse(id: requestId, timestamp: (Date().timeIntervalSince1970 * 1000).rounded(),
                                       accuracy: .init(position: accuracy.position, orientation: accuracy.rotationDegrees),
                                       geopose: geoPose)
        return (.json(response), answer.status.rawValue)
    }

    private static let geoPoseDecoder = JSONDecoder()
}
