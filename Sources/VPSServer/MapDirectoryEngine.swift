import Localization
import Foundation
import Geodesy
import MapModel
import VPSModel
import Storage

/// The production `LocalizationEngine`: maps from a directory of `<id>.vpsmap` files,
/// loaded on first use into a bounded cache of localizer pools; scene content read
/// straight from the map files. Requests localize in parallel, one localizer worker each.
public final class MapDirectoryEngine: LocalizationEngine {
    public let cache: MapCache<LocalizerPool>
    /// Section ids of each map file, read once per file state: the map listing, asked for
    /// often (clients poll it for rollouts), reads no scene while the files are unchanged.
    private let sectionIds = FileDerivedCache<[String]> { path in try VPSMap.loadScene(from: path).sections.map(\.id) }
    /// Each map file's units and where it lies on the earth (nil when it is not
    /// georeferenced), read once per file state.
    private let mapFacts = FileDerivedCache<(units: MapUnits, placement: MapPlacementOnEarth?)> { path in
        let (metadata, keyframes) = try VPSMap.loadMetadataAndKeyframes(from: path)
        return (metadata.units, metadata.georeference.map { g in
            MapPlacementOnEarth(georeference: g, area: GeoArea(mapPoints: keyframes.map(\.pose.center), georeference: g))
        })
    }

    /// - Parameters:
    ///   - cacheCapacity: maps kept in memory at most.
    ///   - cacheBudgetBytes: memory the maps kept may hold together (see `MapCache`), or nil.
    ///   - options: localizer tuning (the defaults are the benchmarked ones).
    public init(directory: URL, cacheCapacity: Int = 4, cacheBudgetBytes: Int? = nil,
                options: LocalizerOptions = LocalizerOptions()) {
        cache = MapCache(directory: directory, capacity: cacheCapacity,
                         budgetBytes: cacheBudgetBytes) { map throws(LocalizationEngineError) in
            do { return LocalizerPool(try Localizer(map: map, options: options)) } catch {
                throw Self.engineError(error)
            }
        }
    }

    public func maps() throws(LocalizationEngineError) -> [MapSummary] {
        cache.mapIds().map { id in
            let sections = cache.file(of: id).flatMap { try? sectionIds.value(ofFileAt: $0.path) } ?? []
            let facts = cache.file(of: id).flatMap { try? mapFacts.value(ofFileAt: $0.path) }
            return MapSummary(id: id, name: id, sections: sections, version: cache.version(of: id),
                              georeference: facts?.placement?.georeference, area: facts?.placement?.area,
                              units: facts?.units.rawValue)
        }
    }

    public func scene(mapId: String) throws(LocalizationEngineError) -> SceneContent {
        guard let url = cache.file(of: mapId) else { throw .unknownMap(mapId) }
        do { return try VPSMap.loadScene(from: url.path) } catch {
            throw .unavailable("the scene of map '\(mapId)' cannot be read: \(error)")
        }
    }

    public func localize(image: [UInt8], request: LocalizeRequest,
                         cancellation: LocalizationCancellation) throws(LocalizationEngineError) -> LocalizeResponse {
        // A map's first load is not interrupted (the localization after it is), so none starts
        // for a request already cancelled.
        if cancellation.isCancelled { throw .cancelled }
        return try cache.withEntry(request.mapId) { loaded throws(LocalizationEngineError) in
            do {
                let result = try loaded.value.withLocalizer { localizer in
                    try localizer.localize(encoded: image, intrinsics: request.intrinsics, prior: request.prior,
                                           priorAccuracy: request.priorAccuracy,
                                           gravity: request.gravity, near: request.locationPrior(georeference: localizer.map.metadata.georeference),
                                           cancellation: cancellation)
                }
                return LocalizeResponse(result, mapId: request.mapId, mapVersion: loaded.version)
            } catch {
                throw Self.engineError(error)
            }
        }
    }

    public var loadedMapCount: Int { cache.loadedCount }

    public var mapCacheStatistics: MapCacheStatistics? { cache.statistics }

    /// How localizer failures reach the client.
    static func engineError(_ error: any Error) -> LocalizationEngineError {
        switch error as? LocalizationError {
        case .invalidIntrinsics(let why): return .unprocessable("impossible intrinsics: \(why)")
        case .imageSizeMismatch, .invalidGravity, .invalidLocationPrior: return .unprocessable("\(error)")
        case .image(let e): return .undecodableImage("\(e)")
        case .emptyMap(let name): return .unprocessable("map '\(name)' has no points to localize against")
        case .cancelled: return .cancelled
        case nil: return .internalFailure("localization failed: \(error)")
        }
    }
}

/// A georeferenced map's georeference and the area its cameras covered.
struct MapPlacementOnEarth: Sendable {
    var georeference: Georeference
    var area: GeoArea?
}
