/// An extractor of either `FeatureType`, for code that follows a map's type: the same
/// options (count, and the pyramid keypoint scales are given in) and the same output as
/// `ORBExtractor` or `SIFTExtractor` made with them.
///
/// Sendable as the extractors it stands for: calls run one at a time; give each task its own.
public final class FeatureExtractor: Sendable {
    private let native: NativeExtractor

    /// Which extractor it is.
    public var type: FeatureType { native.type }
    /// The options it was made with: the feature count, and the pyramid keypoint scales are
    /// given in (for SIFT, see `SIFTExtractor`).
    public var options: ORBOptions { native.options }

    /// Throws `.invalidArgument` for options out of range (`ORBExtractor.init`, `SIFTExtractor.init`).
    public init(_ type: FeatureType = .orb, options: ORBOptions = ORBOptions()) throws(VisionError) {
        native = try NativeExtractor(type, options: options)
    }

    /// Extracts up to `options.featureCount` features from `image`.
    public func extract(_ image: GrayImage) throws(VisionError) -> FeatureSet {
        var out = FeatureSet()
        try extract(image, into: &out)
        return out
    }

    /// Extracts into `features`, reusing its arrays' capacity.
    public func extract(_ image: GrayImage, into features: inout FeatureSet) throws(VisionError) {
        try native.extract(image, into: &features)
    }
}
