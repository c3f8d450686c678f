import Vision

/// Settings of `MapBuilder`. The defaults suit indoor scenes a few metres across seen by a
/// phone-like camera.
public struct MapBuildOptions: Sendable, Hashable {
    /// Use every `keyframeStride`-th posed frame as a keyframe.
    public var keyframeStride: Int = 1
    /// ORB features per keyframe.
    public var orb = ORBOptions(featureCount: 2500)

    /// Expected distances of scene surfaces from the camera (metres), for covisibility.
    public var sceneDepth: ClosedRange<Double> = 0.5...8
    /// Keyframes closer than this (metres) are not paired: too little parallax.
    public var minBaseline: Double = 0.05
    /// Keyframes whose viewing directions differ more than this are not paired.
    public var maxViewAngleDegrees: Double = 60
    /// Least frustum overlap (0…1) for a pair.
    public var minOverlap: Double = 0.25
    /// Best partners kept per keyframe.
    public var partnersPerKeyframe: Int = 8

    /// Lowe's ratio among the candidates near the epipolar line.
    public var ratio: Float = 0.7
    /// Largest Hamming distance of a match.
    public var maxHammingDistance: Int = 50
    /// Largest distance (pixels) of a match from the epipolar line of its partner.
    public var epipolarThreshold: Double = 2.0

    /// Least angle between viewing rays of a point (degrees).
    public var minParallaxDegrees: Double = 2.0
    /// Largest reprojection error of an observation kept in a point, in pixels at pyramid
    /// level 0 (undistorted); an observation at level `o` may be `scaleFactor^o` times that.
    public var maxReprojectionError: Double = 2.5
    /// Largest relative depth uncertainty of a point: the angular uncertainty of its
    /// keypoints (one pixel at their median pyramid level) over the sine of its largest
    /// ray angle. 0.04 keeps a point 5 m away when its depth is good to about 20 cm.
    public var maxDepthUncertainty: Double = 0.04
    /// Two-view points must meet `maxDepthUncertainty` times this.
    public var twoViewUncertaintyFactor: Double = 0.5
    /// Least number of keyframes that must see a point. Two-view points have unverified
    /// depth (a wrong match along the epipolar line triangulates without complaint), hence
    /// their stricter `twoViewUncertaintyFactor`; but they more than double the coverage of a
    /// sparse mapping walk, which is what lets query frames localize (measured on the
    /// shipped gallery sessions: 74 % of query frames localized with 3, 99 % with 2).
    public var minTrackLength: Int = 2

    /// Vocabulary leaves aim at about this many points per word.
    public var pointsPerWord: Double = 8
    /// Threads for extraction and matching (0: all cores).
    public var threads: Int = 0

    public init() {}

    /// The settings as text, stored in the map's metadata.
    public var summary: [String: String] {
        [
            "keyframeStride": "\(keyframeStride)", "orbFeatures": "\(orb.featureCount)",
            "orbLevels": "\(orb.levels)", "orbScale": "\(orb.scaleFactor)",
            "sceneDepth": "\(sceneDepth.lowerBound)-\(sceneDepth.upperBound)", "minBaseline": "\(minBaseline)",
            "maxViewAngleDegrees": "\(maxViewAngleDegrees)", "minOverlap": "\(minOverlap)",
            "partnersPerKeyframe": "\(partnersPerKeyframe)", "ratio": "\(ratio)",
            "maxHammingDistance": "\(maxHammingDistance)", "epipolarThreshold": "\(epipolarThreshold)",
            "minParallaxDegrees": "\(minParallaxDegrees)", "maxReprojectionError": "\(maxReprojectionError)",
            "minTrackLength": "\(minTrackLength)", "maxDepthUncertainty": "\(maxDepthUncertainty)",
            "twoViewUncertaintyFactor": "\(twoViewUncertaintyFactor)", "pointsPerWord": "\(pointsPerWord)",
        ]
    }
}
