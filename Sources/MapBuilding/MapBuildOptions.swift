import Vision

/// Settings of `MapBuilder`. Every one is a count, an angle, a pixel or Hamming distance
/// or a ratio: none depends on the map's units (depths are measured from the images, see
/// `SceneDepthProbe`).
public struct MapBuildOptions: Sendable, Hashable {
    /// Use every `keyframeStride`-th posed frame as a keyframe.
    public var keyframeStride: Int = 1
    /// ORB features per keyframe (at least; see `minFeaturesPerMap`).
    public var orb = ORBOptions(featureCount: 2500)
    /// A map of few photos gets more features per photo: the builder spreads at least this
    /// many over its keyframes, at most `maxFeaturesPerKeyframe` each (and never fewer than
    /// `orb.featureCount`), so from 20 keyframes on every one gets `orb.featureCount`. A few
    /// photos far apart share only the corners each detects among its strongest; with more
    /// of them per photo, more are seen twice. On the monstree photos (7 and 4 map photos,
    /// 640×853, 31–65° apart) 6,000 per photo instead of 2,500 gave 2.4 times the points and,
    /// with the localizer's `smallMapFeatureCount`, 12/12 and 11/15 queries placed instead of
    /// 9/12 and 5/15 (none wrong); 5,000 gave 10/12 and 10/15, 7,500 11–12/12 and 11/15,
    /// 10,000 12/12 and 10/15.
    public var minFeaturesPerMap = 48_000
    public var maxFeaturesPerKeyframe = 6000

    /// Keyframes whose optical axes differ more than this are not paired, and a point is
    /// not searched for in a view this far from every view it was seen from.
    public var maxViewAngleDegrees: Double = 80
    /// Most similar partners (shared vocabulary words) kept per keyframe.
    public var partnersPerKeyframe: Int = 8
    /// Keyframe pairs, per keyframe, matched first to measure the scene's depths.
    public var depthProbePartners: Int = 1
    /// Search each point in the keyframes paired with its views for observations the
    /// pairwise matches missed, then re-triangulate it over all of them.
    public var extendTracks: Bool = true
    /// Observations seen from directions within this angle share one view descriptor.
    public var viewClusterDegrees: Double = 20
    /// Most view descriptors kept per point.
    public var maxViewDescriptorsPerPoint: Int = 4

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
    /// keypoints (one pixel at their median pyramid level, over the focal length) over the
    /// sine of its largest ray angle — a bound on the triangulation angle in pixel terms,
    /// unitless. 0.04 keeps a point 5 m away when its depth is good to about 20 cm.
    public var maxDepthUncertainty: Double = 0.04
    /// The same bound on a map of few photos (those that get more features per photo, see
    /// `minFeaturesPerMap`). There every point counts, and a few photos taken walking forward
    /// see most of the scene at a small angle: such points still fix the rotation and the
    /// lateral position of a query near the path, and the localizer weighs each point by its
    /// own triangulation uncertainty as the query sees it (the measurement behind 0.1:
    /// docs/maps.md, "The map builder").
    public var maxDepthUncertaintyFewPhotos: Double = 0.1
    /// Two-view points must meet `maxDepthUncertainty` times this.
    public var twoViewUncertaintyFactor: Double = 0.5
    /// Least number of keyframes that must see a point. Two-view points have unverified
    /// depth (a wrong match along the epipolar line triangulates without complaint), hence
    /// their stricter `twoViewUncertaintyFactor`; but they more than double the coverage of a
    /// sparse mapping walk, which is what lets query frames localize (docs/maps.md).
    public var minTrackLength: Int = 2

    /// The features every keyframe is described with, and so the map's queries
    /// (`map build --feature-type`). ORB by default; SIFT (`SIFTExtractor`) matches across
    /// larger changes of viewpoint, for maps of few photos, at about ten times the extraction
    /// time per query (docs/maps.md).
    public var featureType: FeatureType = .orb

    /// When points are also described from ASIFT's simulated views of their keyframes
    /// (`AffineView.mapViews`): by default on maps of few photos (`isFewPhotos`), whose
    /// queries come from far off every photo. The localizer matches a query against these
    /// only when the photos' own descriptors do not place it (docs/maps.md).
    public var simulatedViews: SimulatedViews = .fewPhotos

    /// Which maps get simulated-view descriptors.
    public enum SimulatedViews: String, Sendable, Hashable, CaseIterable {
        /// ORB maps of few photos (`map build`'s default).
        case fewPhotos
        /// Every map (`map build --affine-views`).
        case always
        /// None (`map build --no-affine-views`).
        case never
    }

    /// Simulated views on every map (true) or on none (false); `simulatedViews` also has
    /// the default, on maps of few photos.
    public var affineViews: Bool {
        get { simulatedViews == .always }
        set { simulatedViews = newValue ? .always : .never }
    }
    /// Simulated-view descriptors a point may get beyond its own. Each costs matching time
    /// on the frames that need them: on the real-photo splits 4 placed as many as 8 (56/76 on
    /// the harder ones), with one frame fewer outside its claim, in two thirds of the time.
    public var maxAffineDescriptorsPerPoint: Int = 4
    /// A simulated view's descriptor describes a point only within this Hamming distance of
    /// one of the point's own (a neighbouring corner's is farther).
    public var maxAffineDistance: Int = 64

    /// The accuracy of ground control points' surveyed positions, metres at probability
    /// 0.95, horizontally and (when given) vertically: the fit's weights and inlier test
    /// (`map build --gcp-accuracy`). 0.1 m suits a handheld RTK or total-station survey.
    public var controlPointAccuracy: Double = 0.1
    /// Largest reprojection error of a ground control point's observation, pixels
    /// (undistorted): a clicked landmark is a few pixels off, a mislabelled one far more.
    public var maxControlPointError: Double = 4

    /// Vocabulary leaves aim at about this many points per word.
    public var pointsPerWord: Double = 8
    /// Threads for extraction and matching (0: all cores).
    public var threads: Int = 0

    public init() {}

    /// The defaults with the settings `arcloud map build` takes from its command line: a
    /// `featureCount` is exact (`useFeatureCount`), nil keeps the default spreading.
    public init(keyframeStride: Int, featureCount: Int?, minTrackLength: Int, maxReprojectionError: Double,
                threads: Int, simulatedViews: SimulatedViews = .fewPhotos, featureType: FeatureType = .orb) {
        self.init()
        self.keyframeStride = keyframeStride
        if let featureCount { useFeatureCount(featureCount) }
        self.minTrackLength = minTrackLength; self.maxReprojectionError = maxReprojectionError
        self.threads = threads; self.simulatedViews = simulatedViews; self.featureType = featureType
    }

    /// The same with simulated views on every map or none (`affineViews`).
    public init(keyframeStride: Int, featureCount: Int?, minTrackLength: Int, maxReprojectionError: Double,
                threads: Int, affineViews: Bool, featureType: FeatureType = .orb) {
        self.init(keyframeStride: keyframeStride, featureCount: featureCount, minTrackLength: minTrackLength,
                  maxReprojectionError: maxReprojectionError, threads: threads,
                  simulatedViews: affineViews ? .always : .never, featureType: featureType)
    }

    /// Whether a map of `keyframes` keyframes is described from simulated views too.
    public func describesSimulatedViews(keyframes: Int) -> Bool {
        switch simulatedViews {
        case .always: true
        case .never: false
        // SIFT's own descriptors are already made for large changes of viewpoint.
        case .fewPhotos: featureType == .orb && isFewPhotos(keyframes: keyframes)
        }
    }

    /// Whether a map of `keyframes` keyframes counts as one of few photos (it then gets more
    /// features per photo and keeps less certain points).
    public func isFewPhotos(keyframes: Int) -> Bool {
        featuresPerKeyframe(keyframes: keyframes) > orb.featureCount
    }

    /// The relative depth uncertainty a point may have in a map of `keyframes` keyframes.
    public func depthUncertaintyBound(keyframes: Int) -> Double {
        isFewPhotos(keyframes: keyframes) ? maxDepthUncertaintyFewPhotos : maxDepthUncertainty
    }

    /// Exactly `count` ORB features per keyframe, however few the keyframes (no spreading
    /// of `minFeaturesPerMap`): what a feature count given by hand means.
    public mutating func useFeatureCount(_ count: Int) {
        orb.featureCount = count
        minFeaturesPerMap = 0
    }

    /// ORB features extracted per keyframe in a map of `keyframes` keyframes.
    public func featuresPerKeyframe(keyframes: Int) -> Int {
        let spread = (minFeaturesPerMap + max(keyframes, 1) - 1) / max(keyframes, 1)
        return max(orb.featureCount, min(spread, maxFeaturesPerKeyframe))
    }

    /// The settings as text, stored in the map's metadata.
    public var summary: [String: String] {
        [
            "featureType": "\(featureType)", "keyframeStride": "\(keyframeStride)", "orbFeatures": "\(orb.featureCount)",
            "minFeaturesPerMap": "\(minFeaturesPerMap)", "maxFeaturesPerKeyframe": "\(maxFeaturesPerKeyframe)",
            "orbLevels": "\(orb.levels)", "orbScale": "\(orb.scaleFactor)",
            "maxViewAngleDegrees": "\(maxViewAngleDegrees)", "depthProbePartners": "\(depthProbePartners)",
            "partnersPerKeyframe": "\(partnersPerKeyframe)", "ratio": "\(ratio)", "extendTracks": "\(extendTracks)",
            "viewClusterDegrees": "\(viewClusterDegrees)", "maxViewDescriptorsPerPoint": "\(maxViewDescriptorsPerPoint)",
            "maxHammingDistance": "\(maxHammingDistance)", "epipolarThreshold": "\(epipolarThreshold)",
            "minParallaxDegrees": "\(minParallaxDegrees)", "maxReprojectionError": "\(maxReprojectionError)",
            "minTrackLength": "\(minTrackLength)", "maxDepthUncertainty": "\(maxDepthUncertainty)",
            "maxDepthUncertaintyFewPhotos": "\(maxDepthUncertaintyFewPhotos)",
            "twoViewUncertaintyFactor": "\(twoViewUncertaintyFactor)", "pointsPerWord": "\(pointsPerWord)",
            "simulatedViews": simulatedViews.rawValue, "maxAffineDescriptorsPerPoint": "\(maxAffineDescriptorsPerPoint)",
            "maxAffineDistance": "\(maxAffineDistance)", "controlPointAccuracy": "\(controlPointAccuracy)",
            "maxControlPointError": "\(maxControlPointError)",
        ]
    }
}
