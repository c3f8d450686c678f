import VPS

/// What the HTTP service needs from the localization side: the maps it can serve, their
/// scene content, and localizing one image. The server validates the request (token,
/// multipart, JSON, intrinsics, image header) before calling `localize`.
///
/// Implementations are called concurrently from the server's worker threads and may block
/// (a localization is CPU work); they must be safe to call from many threads at once.
public protocol LocalizationEngine: Sendable {
    /// The maps that can be localized against, in a stable order.
    func maps() throws(LocalizationEngineError) -> [MapSummary]

    /// Sections, AR objects and navigation graph of a map.
    func scene(mapId: String) throws(LocalizationEngineError) -> SceneContent

    /// Localizes one encoded image (JPEG or PNG, already checked to be one of them and of
    /// the size the intrinsics state) against `request.mapId`.
    func localize(image: [UInt8], request: LocalizeRequest) throws(LocalizationEngineError) -> LocalizeResponse

    /// Maps currently loaded in memory (the `arcloud_maps_loaded` gauge).
    var loadedMapCount: Int { get }
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

    public var description: String {
        switch self {
        case .unknownMap(let id): return "no map with id '\(id)'"
        case .undecodableImage(let m): return "the image cannot be decoded: \(m)"
        case .unprocessable(let m): return m
        case .unavailable(let m): return "unavailable: \(m)"
        case .internalFailure(let m): return "internal failure: \(m)"
        }
    }
}
