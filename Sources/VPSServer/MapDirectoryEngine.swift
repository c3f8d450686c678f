import Foundation
import VPS

/// The production `LocalizationEngine`: maps from a directory through a `MapCache`, scene
/// content straight from the map files, and localization by the function it is given
/// (the VPS localizer). Without one, `localize` answers 503 "no localizer".
public final class MapDirectoryEngine: LocalizationEngine {
    /// Localizes encoded image bytes against a loaded map; failures are stated as the
    /// engine errors they map to (`undecodableImage`, `unprocessable`, ...).
    public typealias Localize = @Sendable (_ map: VPSMap, _ image: [UInt8], _ request: LocalizeRequest)
        throws(LocalizationEngineError) -> LocalizationResult

    public let cache: MapCache
    private let localizeFunction: Localize?

    public init(cache: MapCache, localize: Localize?) {
        self.cache = cache
        localizeFunction = localize
    }

    public func maps() throws(LocalizationEngineError) -> [MapSummary] {
        cache.mapIds().map { id in
            let sections = cache.file(of: id).flatMap { try? VPSMap.loadScene(from: $0.path) }?.sections.map(\.id) ?? []
            return MapSummary(id: id, name: id, sections: sections)
        }
    }

    public func scene(mapId: String) throws(LocalizationEngineError) -> SceneContent {
        guard let url = cache.file(of: mapId) else { throw .unknownMap(mapId) }
        do { return try VPSMap.loadScene(from: url.path) } catch {
            throw .unavailable("the scene of map '\(mapId)' cannot be read: \(error)")
        }
    }

    public func localize(image: [UInt8], request: LocalizeRequest) throws(LocalizationEngineError) -> LocalizeResponse {
        guard let localizeFunction else {
            throw .unavailable("this server has no localizer")
        }
        let map = try cache.map(request.mapId)
        return LocalizeResponse(try localizeFunction(map, image, request), mapId: request.mapId)
    }

    public var loadedMapCount: Int { cache.loadedCount }
}
