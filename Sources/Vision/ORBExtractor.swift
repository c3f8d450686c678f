import Support
import VisionCore

/// Parameters of ORB extraction.
public struct ORBOptions: Sendable, Hashable {
    /// Features wanted over all pyramid levels.
    public var featureCount: Int = 1000
    /// Scale between pyramid levels.
    public var scaleFactor: Float = 1.2
    /// Number of pyramid levels.
    public var levels: Int = 8
    /// FAST threshold tried first in every grid cell.
    public var initialFASTThreshold: Int = 20
    /// FAST threshold used in cells where the initial one finds nothing.
    public var minimumFASTThreshold: Int = 7
    /// Grid cell size in level pixels for the threshold fallback.
    public var cellSize: Int = 30

    public init(featureCount: Int = 1000, scaleFactor: Float = 1.2, levels: Int = 8,
                initialFASTThreshold: Int = 20, minimumFASTThreshold: Int = 7, cellSize: Int = 30) {
        self.featureCount = featureCount; self.scaleFactor = scaleFactor; self.levels = levels
        self.initialFASTThreshold = initialFASTThreshold
        self.minimumFASTThreshold = minimumFASTThreshold; self.cellSize = cellSize
    }
}

/// ORB feature extractor: FAST corners on a scale pyramid, spread evenly over each level
/// (an ORB-SLAM-style quadtree with a lower FAST threshold in empty cells), oriented by
/// intensity centroid, described by 256-bit steered BRIEF.
///
/// The extractor owns a C++ object (created in `init`, destroyed in `deinit`) that keeps its
/// pyramid and scratch buffers between frames, so steady-state extraction does not allocate
/// inside the core. Output is deterministic for a given image and options.
///
/// Sendable: the C++ object sits behind a `Locked` (Locking module), so one extractor may be
/// shared between tasks, but calls on it run one at a time. For parallel extraction give each
/// task its own.
public final class ORBExtractor: Sendable {
    /// The options it was made with.
    public var options: ORBOptions { native.options }

    private let native: NativeExtractor

    /// Throws `.invalidArgument` for options out of range (feature count 1...100000, scale
    /// factor in (1, 4), levels 1...32, thresholds 1 ≤ minimum ≤ initial ≤ 255, cell 8...512).
    public init(options: ORBOptions = ORBOptions()) throws(VisionError) {
        native = try NativeExtractor(.orb, options: options)
    }

    /// Extracts up to `options.featureCount` features from `image`.
    public func extract(_ image: GrayImage) throws(VisionError) -> FeatureSet {
        var out = FeatureSet()
        try extract(image, into: &out)
        return out
    }

    /// Extracts into `features`, reusing its arrays' capacity (no allocation once warmed up).
    public func extract(_ image: GrayImage, into features: inout FeatureSet) throws(VisionError) {
        try native.extract(image, into: &features)
    }
}
