import VPSServer

/// The localizer `arcloud serve` and `arcloud bench serve` plug into `MapDirectoryEngine`.
///
/// The VPS localizer has not landed yet: until it does this is nil and `POST /v1/localize`
/// answers 503 "this server has no localizer" (maps, scenes, tokens, health and metrics
/// work). Plugging it in is this one definition:
/// `{ map, image, request throws(LocalizationEngineError) in try Localizer(map).localize(...) }`.
enum ProductLocalizer {
    static let function: MapDirectoryEngine.Localize? = nil
}
