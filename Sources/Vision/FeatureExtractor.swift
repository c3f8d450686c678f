/// An extractor of either `FeatureType`, for code that follows a map's type: the same
/// options (count, and the pyramid keypoint scales are given in) and the same output.
///
/// Sendable as the extractors it wraps: calls run one at a time; give each task its own.
public final class FeatureExtractor: Sendable {
    /// Which extractor it wraps.
    public let type: FeatureType
    /// The options it was made with: the feature count, and the pyramid keypoint scales are
    /// given in (for SIFT, see `SIFTExtractor`).
    public let options: ORBOptions

    private enum Backend: Sendable {
        case orb(ORBExtractor)
        case sift(SIFTExtractor)
    }
    private let backend: Backend

    /// Throws `.invalidArgument` for options out of range (`ORBExtractor.init`, `SIFTExtractor.init`).
    public init(_ type: FeatureType = .orb, options: ORBOptions = ORBOptions()) throws(VisionError) {
        self.type = type
        self.options = options
        switch type {
        case .orb: backend = .orb(try ORBExtractor(options: options))
        case .sift: backend = .sift(try SIFTExtractor(options: options))
        }
    }

    /// Extracts up to `options.featureCount` features from `image`.
    public func extract(_ image: GrayImage) throws(VisionError) -> FeatureSet {
        var out = FeatureSet()
        try extract(image, into: &out)
        return out
    }

    /// Extracts into `features`, reusing its arrays' capacity.
    public func extract(_ image: GrayImage, into features: inout FeatureSet) throws(VisionError) {
        switch backend {
        case .orb(let e): try e.extract(image, into: &features)
        case .sift(let e): try e.extract(image, into: &features)
        }
    }
}
