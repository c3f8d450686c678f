/// The features a map is built from. Its queries are described with the same, so a map
/// records its type (`MapMetadata.featureType`) and the localizer follows it.
public enum FeatureType: String, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
    /// ORB (`ORBExtractor`): the default, and what the speed figures are for.
    case orb
    /// SIFT keypoints with binary descriptors (`SIFTExtractor`): about ten times ORB's
    /// extraction time per query, for maps of few photos queried from far off them.
    case sift

    public var description: String { rawValue }

    /// As people write it: "ORB", "SIFT".
    public var name: String { rawValue.uppercased() }
}
