import Localization
import VPSModel

/// What the HTTP service needs from the localization side: the maps it can serve, their
/// scene content, and localizing one image. The server validates the request (token,
/// multipart, JSON, intrinsics, image header) before calling `localize`.
///
/// Implementations are called concurrently from the server's threads and may block (a
/// localization is CPU work); they must be safe to call from many threads at once.
public protocol LocalizationEngine: Sendable {
    /// The maps that can be localized against, in a stable order.
    func maps() throws(LocalizationEngineError) -> [MapSummary]

    /// Sections, AR objects and navigation graph of a map.
    func scene(mapId: String) throws(LocalizationEngineError) -> SceneContent

    /// Localizes one encoded image (JPEG or PNG, already checked to be one of them and of
    /// the size the intrinsics state) against `request.mapId`. Once `cancellation` says so
    /// (the request's time budget ran out, or the server stopped waiting), the engine
    /// should stop at its next opportunity and throw `.cancelled`: the core it frees serves
    /// the next request.
    func localize(image: [UInt8], request: LocalizeRequest,
                  cancellation: LocalizationCancellation) throws(LocalizationEngineError) -> LocalizeResponse

    /// Maps currently loaded in memory (the `arcloud_maps_loaded` gauge).
    var loadedMapCount: Int { get }

    /// The map cache's counters for `/metrics`, when the engine has one.
    var mapCacheStatistics: MapCacheStatistics? { get }
}

extension LocalizationEngine {
    public var mapCacheStatistics: MapCacheStatistics? { nil }
}

extension LocalizationEngine {
    /// Localizes without a deadline (see `localize(image:request:cancellation:)`).
    public func localize(image: [UInt8], request: LocalizeRequest) throws(LocalizationEngineError) -> LocalizeResponse {
        try localize(image: image, request: request, cancellation: .none)
    }
}

/// Why an engine could not answer; each case maps to one HTTP status.
public enum LocalizationEngineError: Error, Sendable, Hashable, CustomStringConvertible {
    /// No map with this id (404).
    case unknownMap(String)
    /// The image bytes could not be decoded (422).
    case undecodableImage(String)
    /// The request is well-formed but cannot be served as asked (422).
    case unprocessable(String)
    /// The engine cannot serve right now, e.g. a map failed to load or too busy (503).
    case unavailable(String)
    /// Something broke inside the engine that the request did not cause (500).
    case internalFailure(String)
    /// The caller's `LocalizationCancellation` stopped the localization; the server answers
    /// it as the reason it cancelled (time budget, drain).
    case cancelled

    public var description: String {
        switch self {
        case .unknownMap(let id): return "no map with id '\(id)'"
        case .undecodableImage(let m): return "the image cannot be decoded: \(m)"
        case .unprocessable(let m): return m
        case .unavailable(let m): return "unavailable: \(m)"
        case .internalFailure(let m): return "internal failure: \(m)"
        case .cancelled: return "the localization was cancelled before it finished"
        }
    }
}
