/// The length unit of a map's coordinates.
///
/// Maps built from arcloud sessions (the generator, gravity-aligned recordings) are in
/// metres. A COLMAP reconstruction has an arbitrary scale, so a map built from one is in
/// `unknown` units unless the user says otherwise (`map build --units metres`). With
/// unknown units, distances are meaningful only relative to the map's own scale.
public enum MapUnits: String, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
    case metres
    case unknown

    /// Parses `metres` (also `meters`, `m`) or `unknown`; nil otherwise.
    public init?(parsing text: String) {
        switch text.lowercased() {
        case "metres", "meters", "metre", "meter", "m": self = .metres
        case "unknown": self = .unknown
        default: return nil
        }
    }

    public var description: String { rawValue }
}
