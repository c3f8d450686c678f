import Support
import VisionCore

/// SIFT keypoints (OpenCV's difference-of-Gaussian detector and gradient orientation) with
/// 256-bit binarized descriptors: each of SIFT's 128 elements against the descriptor's own
/// median and upper quartile (`vc_sift_binarize`).
///
/// Binary, so a SIFT map is matched, indexed and stored as an ORB map is (Hamming distance
/// on 32 bytes). SIFT's detector and descriptor hold up under larger changes of viewpoint
/// than ORB's, which a map of few photos needs; extraction costs about ten times ORB's
/// (docs/localizer.md gives both).
///
/// Keypoints report their scale as the level of `options`' pyramid (`vc_sift.h`), so
/// per-level noise reads them as it reads ORB's. `options.featureCount` strongest are kept.
///
/// Sendable as `ORBExtractor` is: calls on one extractor run one at a time.
public final class SIFTExtractor: Sendable {
    /// The options it was made with: the count, and the pyramid keypoint scales are given in.
    public var options: ORBOptions { native.options }

    private let native: NativeExtractor

    /// Throws `.invalidArgument` for a feature count outside 1...100000, a scale factor
    /// outside (1, 4) or levels outside 1...32.
    public init(options: ORBOptions = ORBOptions()) throws(VisionError) {
        native = try NativeExtractor(.sift, options: options)
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

    /// The 256-bit code of one 128-element SIFT descriptor (`vc_sift_binarize`): bit j
    /// set when element j exceeds the descriptor's median, bit 128 + j when it exceeds its
    /// upper quartile. Throws `.invalidArgument` unless there are 128 elements.
    public static func binarize(_ descriptor: [Float]) throws(VisionError) -> [UInt8] {
        guard descriptor.count == 128 else {
            throw VisionError(.invalidArgument, "a SIFT descriptor has 128 elements, got \(descriptor.count)")
        }
        var out = [UInt8](repeating: 0, count: FeatureSet.descriptorBytes)
        descriptor.withUnsafeBufferPointer { d in out.withUnsafeMutableBufferPointer { vc_sift_binarize(d.baseAddress, $0.baseAddress) } }
        return out
    }
}
