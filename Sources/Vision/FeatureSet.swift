/// A feature position in level-0 pixels of the image it came from.
public struct Keypoint: Sendable, Hashable {
    public var x: Float
    public var y: Float
    /// Diameter of the descriptor patch in level-0 pixels.
    public var size: Float
    /// Orientation in degrees, 0 ..< 360.
    public var angle: Float
    /// FAST corner score.
    public var response: Float
    /// Pyramid level the keypoint was found on (0 = full resolution).
    public var octave: Int

    public init(x: Float, y: Float, size: Float = 31, angle: Float = 0, response: Float = 0, octave: Int = 0) {
        self.x = x; self.y = y; self.size = size; self.angle = angle
        self.response = response; self.octave = octave
    }

    public var position: SIMD2<Double> { SIMD2(Double(x), Double(y)) }
}

/// Keypoints and their 256-bit ORB descriptors, `descriptors[32*i ..< 32*(i+1)]` belonging
/// to `keypoints[i]`. The descriptors are one contiguous array so they cross into the C
/// matcher without copying.
public struct FeatureSet: Sendable, Hashable {
    /// Bytes per descriptor.
    public static let descriptorBytes = 32

    public var keypoints: [Keypoint]
    public var descriptors: [UInt8]

    /// Throws `.invalidArgument` unless there are 32 descriptor bytes per keypoint.
    public init(keypoints: [Keypoint], descriptors: [UInt8]) throws(VisionError) {
        guard descriptors.count == keypoints.count * FeatureSet.descriptorBytes else {
            throw VisionError(.invalidArgument,
                              "\(keypoints.count) keypoints need \(keypoints.count * 32) descriptor bytes, got \(descriptors.count)")
        }
        self.keypoints = keypoints
        self.descriptors = descriptors
    }

    public init() {
        keypoints = []
        descriptors = []
    }

    public var count: Int { keypoints.count }
    public var isEmpty: Bool { keypoints.isEmpty }

    /// The 32 bytes of descriptor `i`.
    public func descriptor(_ i: Int) -> ArraySlice<UInt8> {
        descriptors[i * FeatureSet.descriptorBytes ..< (i + 1) * FeatureSet.descriptorBytes]
    }
}
