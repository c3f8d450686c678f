import Vision
import MapModel

/// Tuning of the localizer. The defaults are what the shipped benchmarks and tests use.
public struct LocalizerOptions: Sendable, Hashable {
    /// ORB on the query image.
    public var orb = ORBOptions(featureCount: 1000)
    /// Lowe ratio for global (vocabulary) matching.
    public var globalRatio: Float = 0.8
    /// Vocabulary depth whose nodes group candidate points for global matching; nil means
    /// one level above the leaves (about 30 candidates per feature on a 30k-point map:
    /// better recall than exact words, still a tiny fraction of the map).
    public var candidateDepth: Int? = nil
    /// On a map of at most this many points, a frame that the word search does not place is
    /// matched against every map point instead of its probes: a vocabulary of a few dozen
    /// words over a few hundred points (four real photos) loses right matches, and
    /// 3,000 × 5,000 Hamming distances are affordable once. The word search comes first all
    /// the same: on a well-framed query it places the frame for a tenth of the distances
    /// (`GlobalSearchStateMachine`).
    public var wholeMapMatchingMaxPoints = 5000
    /// ORB features per query on such a map (nil: `orb.featureCount`). A map small enough to
    /// be matched whole comes from a few photos, each point seen from one to three
    /// directions: more query features make it likelier that the query detects those same
    /// corners, and comparing them with a few thousand points stays cheap. On the monstree
    /// photos (maps built with 6,000 features per photo): 1,000 query features placed 9/12
    /// and 5/15 queries, 2,000 12/12 and 10/15, 2,500 and 3,000 12/12 and 11/15 (none wrong).
    public var smallMapFeatureCount: Int? = 3000
    /// Features per query on a SIFT map (nil: as on an ORB map). SIFT's cost is its
    /// scale space, not the count kept, and its strongest keypoints crowd the most textured
    /// regions: on the real-photo splits 6,000 instead of 3,000 placed 81/86 instead of 75/86
    /// and, on the harder splits, 62/76 instead of 58/76, none wrong (docs/maps.md).
    public var siftFeatureCount: Int? = 6000
    /// The place search of maps of many keyframes (`PlaceSearch`).
    public var places = PlaceSearch()
    /// Motion-blur removal before the features are extracted (`MotionDeblur`).
    public var motionDeblur = MotionDeblur()
    /// When global matching finds no acceptable pose, match once more with multi-probe
    /// quantization (nil: don't). Only hard frames pay for it.
    public var fallbackProbes: VocabularyProbes? = VocabularyProbes()
    /// Guided matching by projecting map points with a pose (tracking prior, or the
    /// first estimate in the guided pass), over the local map.
    public var priorSearch = ProjectionSearch(radius: 20, maxCandidatesPerKeypoint: 8)
    /// Guided passes after the first pose, widest first; each later pass projects only the
    /// points the previous pass found near some keypoint, and runs only while the poses
    /// still move (`guidedConvergencePixels`). The second, tighter pass keeps blurred
    /// frames accurate: one 12 px pass left a blurred frame 22 cm off, these leave it under 7 cm.
    public var refineSearches = [ProjectionSearch(radius: 16, maxCandidatesPerKeypoint: 6),
                                 ProjectionSearch(radius: 6, maxCandidatesPerKeypoint: 4)]
    /// The guided passes stop once a pass moves its inliers' projections by less than this
    /// (mean, pixels): the next, tighter pass would find the same matches.
    public var guidedConvergencePixels = 1.0
    /// A pose found around a tracking prior must lie this close to it to count as a fix
    /// (odometry drifts a small fraction of the scene between fixes): a distance in map
    /// scales (`MapScale`; 0.3 m on the gallery map) and an angle.
    public var priorTolerance = RelativeTolerance(scales: 0.3 / 3.5, degrees: 5)
    /// Guided matching projects only points this far in front of the camera (in map
    /// scales: 5 cm to 100 m on the gallery map).
    public var projectionDepth: ClosedRange<Double> = (0.05 / 3.5)...(100 / 3.5)
    /// The local map includes keyframes whose camera lies within this distance of the pose
    /// (in map scales; 2.5 m on the gallery map) looking the same way.
    public var nearbyKeyframeRadius = 2.5 / 3.5
    /// A guided pass may move the pose only while this fraction of the first pose's
    /// inliers stays inliers.
    public var minEvidenceSupport = 0.8
    /// Lowe ratio for guided matching (candidates are already few and near).
    public var guidedRatio: Float = 0.9
    /// Guided matches farther than this Hamming distance are dropped.
    public var guidedMaxDistance = 80
    /// Inliers seen farther than this (degrees) from their mapped viewing direction are
    /// implausible: ORB does not match across such a change of viewpoint.
    public var maxViewingAngle = 75.0
    /// Robust pose solve. The final refinement uses a Cauchy loss at the inlier threshold
    /// rather than the estimator's default Huber: real inlier sets include near-misses
    /// (blur, coarse pyramid levels, a wrong match that happens to fit), and a redescending
    /// loss bounds their pull. Over the four synthetic positive sessions in both modes it
    /// lowered the p90 translation error in seven of eight runs (blurred session
    /// 2.1 → 1.7 cm, walk 0.96 → 0.81 cm).
    public var ransac = RansacOptions(threshold: 4, confidence: 0.999, maxIterations: 1000,
                                      refinementLoss: .cauchy(scale: 4))
    /// When a pose counts (`PoseAcceptance`): how unlikely its evidence is by chance, how
    /// well it is determined, that no other pose explains the evidence as well, and that it
    /// explains the image regions where the map predicts structure.
    public var acceptance = PoseAcceptance()
    /// Global inliers a pose needs before it is grown by guided matching and judged: a cost
    /// gate only (a pose with fewer is never significant), lower when the frame's gravity is
    /// known (upright P2P finds the few true matches of a blurred frame as a consistent set).
    public var seedInliers = 8
    public var seedInliersWithGravity = 5
    /// A pose found around a tracking prior is judged on guided matches, which were picked
    /// near the prior's projections and so cannot be tested against chance the way global
    /// matches are; its independent evidence is the device odometry it must agree with
    /// (`priorTolerance`). It needs at least this many inliers…
    public var minInliers = 20
    /// …making up at least this fraction of the guided matches…
    public var minInlierRatio = 0.15
    /// …and, like every pose, at most this RMS reprojection error (pixels)…
    public var maxReprojectionError = 2.5
    /// …and, when the frame comes with the device's gravity, tilting at most this many
    /// degrees from it (phone IMUs measure gravity to a fraction of a degree).
    public var maxGravityTilt = 3.0
    /// Images larger than this many pixels are refused before decoding.
    public var maxImagePixels = 40_000_000

    public init() {}

    /// Whether global matching compares every query feature with the whole map.
    public func matchesWholeMap(points: Int) -> Bool { points <= wholeMapMatchingMaxPoints }

    /// Extraction options for a query against a map of `points` points of feature `type`:
    /// more features on a map matched whole (`smallMapFeatureCount`), and on a SIFT map
    /// (`siftFeatureCount`).
    public func queryFeatures(_ type: FeatureType = .orb, mapPoints points: Int) -> ORBOptions {
        var o = orb
        if matchesWholeMap(points: points), let n = smallMapFeatureCount { o.featureCount = max(o.featureCount, n) }
        if type == .sift, let n = siftFeatureCount { o.featureCount = max(o.featureCount, n) }
        return o
    }

    /// The extractor for queries against `map`: of the map's feature type, with
    /// `queryFeatures`' options.
    public func queryExtractor(for map: VPSMap) throws(VisionError) -> FeatureExtractor {
        let type = map.metadata.featureType
        return try FeatureExtractor(type, options: queryFeatures(type, mapPoints: map.points.count))
    }

    /// Exactly `count` features per query on every map (`--features`).
    public mutating func useFeatureCount(_ count: Int) {
        orb.featureCount = count
        smallMapFeatureCount = nil
        siftFeatureCount = nil
    }
}

/// A pose error bound: a distance in map scales (`MapScale`) and an angle.
public struct RelativeTolerance: Sendable, Hashable {
    public var scales: Double
    public var degrees: Double
    public init(scales: Double, degrees: Double) { self.scales = scales; self.degrees = degrees }
}

/// Multi-probe global matching (after Lv et al.'s multi-probe LSH, applied to the
/// vocabulary tree): each feature's candidates are the points under every node at the
/// candidate depth whose path is at most `slackBits` worse than the plain descent's
/// (summing, level by level, how much farther the node taken is than its closest
/// sibling): up to `maxProbes` nodes, the feature's own first.
///
/// Blur and lighting change move a descriptor by a few bits, which is enough to cross a
/// cluster boundary somewhere on its path: the plain descent then never meets its map
/// point, however the candidates are widened below the wrong branch. (The defaults, and
/// the alternatives measured against them, are in docs/localizer.md, "Single-shot".)
public struct VocabularyProbes: Sendable, Hashable {
    /// Nodes per feature, at most (1...64).
    public var maxProbes = 8
    /// How much worse (Hamming bits, summed over the levels of its path) than the plain
    /// descent a node's path may be and still be probed.
    public var slackBits = 10
    /// Lowe ratio for these matches: more candidates per feature bring a closer second
    /// best, so the test is a little looser than `globalRatio`.
    public var ratio: Float = 0.85
    /// RANSAC samples for the plain search that comes first (at most `ransac.maxIterations`).
    /// Its candidates are among the probes', so a frame whose plain matches need more
    /// samples than this is searched again with more right matches and the full budget.
    /// Hopeless blurred frames stop wasting the full budget there.
    public var plainSearchMaxIterations = 300

    public init(maxProbes: Int = 8, slackBits: Int = 10, ratio: Float = 0.85, plainSearchMaxIterations: Int = 300) {
        self.maxProbes = maxProbes; self.slackBits = slackBits; self.ratio = ratio
        self.plainSearchMaxIterations = plainSearchMaxIterations
    }
}

/// Removing a query frame's linear motion blur (`MotionBlur`) before ORB runs on it.
///
/// A frame smeared along one direction gives corners that match their neighbours along it
/// nearly as well as their own map points, and guided matching settles wherever it started:
/// a degree or so of yaw and a few centimetres off, with hundreds of inliers that make the
/// pose look certain. A frame is deconvolved only when both tests below call it smeared
/// (and localized again as captured when the deconvolved frame gives no accepted pose);
/// any other frame is used as it is, for one pass over half its rows. A smeared one costs
/// three real Fourier transforms more: one forward, shared by the length search and the
/// deconvolution, and an inverse for each.
public struct MotionDeblur: Sendable, Hashable {
    /// Off: every frame is used as it comes.
    public var enabled = true
    /// Shortest smear removed, in pixels: FAST reads a circle 7 px across, and a shorter
    /// smear leaves its corners where they were.
    public var minLength = 6.0
    /// Least gradient anisotropy (energy across the smear over energy along it) taken as a
    /// smear. Sharp synthetic frames measure 1.0–1.6 and smeared ones 2–4; of the 89 real
    /// photos under `../shared/real` and `Tests/Fixtures/real`, two facades of vertical edges
    /// reach 2.2 and 2.4, with a lag minimum of 4 px, below `minLength`: no real photo is
    /// deconvolved.
    public var minAnisotropy = 2.0
    /// Wiener regulariser, the noise-to-signal power ratio: no frequency is amplified more
    /// than 1/(2√k), 1.6× at 0.1, so a length estimated a few pixels long cannot ring. Of
    /// 0.01, 0.03, 0.1 and 0.3, 0.1 placed the most blurred frames of the synthetic sessions.
    public var noiseToSignal = 0.1
    /// Larger frames are used as they come: the length search and the deconvolution hold
    /// about 14 bytes a pixel in Fourier transforms (170 MB for a 12 MP photo), once per
    /// worker.
    public var maxPixels = 12_000_000

    public init() {}
}

/// Global matching restricted to the places a frame may show, on a map of many keyframes
/// (a building). Matched against the whole map, a feature meets the look-alikes of every
/// room (the same poster, door and floor throughout) and the right match fails the ratio
/// test; matched within one place — a keyframe that the frame's features vote for, with the
/// keyframes around it — it meets only that room's. The places are searched when the
/// whole-map searches give no accepted pose, best first, each judged like any global pose.
public struct PlaceSearch: Sendable, Hashable {
    /// Maps of at least this many keyframes get the place search: a frame sees a few rooms,
    /// and a map of a few rooms (the shipped gallery: 180 keyframes) has no look-alikes
    /// elsewhere to confuse a match with.
    public var minKeyframes = 500
    /// Keyframes, ranked by the votes of their place (`LocalMap.placeVotes`), that may seed places.
    public var rankedKeyframes = 10
    /// Places tried at most.
    public var maxPlaces = 3
    /// A feature votes through its nearest map point only within this Hamming distance.
    public var maxVoteDistance = 64
    /// On a map joined from separate captures (`MapParts`), the parts searched one by one
    /// instead of the places, at most this many: matched within one part a feature meets
    /// only that part's look-alikes, as on the part's own map.
    public var maxParts = 16
    /// A connected set of fewer keyframes is a fragment, not a part searched on its own.
    public var minPartKeyframes = 20

    public init() {}

    func applies(toKeyframes n: Int, parts: Int) -> Bool { n >= minKeyframes || parts > 1 }
}
