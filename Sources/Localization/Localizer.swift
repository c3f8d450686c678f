import Foundation
import Geodesy
import Geometry
import Vision
import Support
import VPSModel
import MapModel

/// Finds where a camera is in a map from one image.
///
/// Pipeline per frame: decode → motion-blur removal when the frame is smeared
/// (`LocalizerOptions.motionDeblur`) → ORB → 2D–3D candidates (vocabulary nodes in single-shot
/// mode, or projection of the local map with a pose prior in tracking mode) → Hamming
/// matching with a ratio test → LO-RANSAC with upright P2P when the device's gravity comes
/// with the frame, Lambda Twist P3P otherwise → guided passes that project the local map
/// with the pose to gather more matches → robust LM → accept or reject (`PoseAcceptance`:
/// the global matches must be significant a contrario, the pose determined within the
/// promised accuracy, without a rival that fits as well, and explaining the image regions
/// where the map expects structure).
///
/// Gravity matters most on hard frames: blur leaves 5–10 right matches among a hundred,
/// which a two-point sample finds in a few hundred draws and a three-point one in
/// thousands.
///
/// Matching goes straight from image features to map points through the vocabulary
/// (as in Sattler et al.'s Active Search) instead of first retrieving keyframes: it skips
/// a retrieval stage and its recall loss, and costs a few thousand Hamming distances. A
/// frame it cannot place is matched again with multi-probe quantization: blur moves many
/// descriptors across a cluster boundary of the vocabulary, so each feature also tries the
/// nodes it lies nearly as close to (`LocalizerOptions.fallbackProbes`). On a map of a few
/// photos, where a vocabulary of a few hundred words loses right matches, the frame is
/// matched against every map point instead (`LocalizerOptions.wholeMapMatchingMaxPoints`).
/// On a map with descriptors from simulated views (`VPSMap.simulatedViewDescriptors`, a map
/// of few photos), a frame the photos' own descriptors do not place is searched once more
/// with those among them.
///
/// Thread safety: `localize` may be called from any thread; calls on one localizer
/// serialise on its ORB extractor. For parallel work make one localizer per worker with
/// `makeWorker()`: workers share the map and its index, not their scratch buffers.
public final class Localizer: Sendable {
    public let map: VPSMap
    public let options: LocalizerOptions
    /// Vocabulary node → map points, for global matching.
    private let index: CandidateIndex
    let viewing: ViewingDirections
    /// Each map point's triangulation covariance.
    let pointUncertainty: PointUncertainty
    private let localMap: LocalMap
    /// The map's length scale: every length threshold is a multiple of it.
    public let scale: MapScale
    /// The map's upright frame when its up direction is known; nil otherwise, and then a
    /// frame's gravity is ignored (it cannot be related to the map).
    let upright: UprightFrame?
    private let vocabulary: Vocabulary
    /// Of the map's feature type (`MapMetadata.featureType`).
    private let extractor: FeatureExtractor
    /// Keypoint position noise per pyramid level, relative to level 0.
    let octaveSigma: [Double]
    /// The same map with its simulated-view descriptors matched too
    /// (`VPSMap.withSimulatedViewsMatched`), for a frame this one does not place; nil for a
    /// map without them.
    private let widened: Localizer?

    /// Prepares `map` for localization (builds the candidate index: a few ms per 100k points).
    public convenience init(map: VPSMap, options: LocalizerOptions = LocalizerOptions()) throws {
        guard let vocabulary = map.vocabulary, map.points.count >= 4 else {
            throw LocalizationError.emptyMap(map.metadata.name)
        }
        let depth = min(options.candidateDepth ?? max(1, vocabulary.depth - 1), vocabulary.depth)
        let scale = MapScale(map: map)
        let localMap = LocalMap(map: map, nearbyRadius: scale(options.nearbyKeyframeRadius),
                                minPartKeyframes: options.places.minPartKeyframes)
        let upright = Self.upDirection(of: map).map(UprightFrame.init)
        let viewing = ViewingDirections(map: map)
        let pointUncertainty = PointUncertainty(map: map, scaleFactor: Double(options.orb.scaleFactor), parts: localMap.parts)
        // Same points, observations and vocabulary: only the index differs.
        let widened = map.simulatedViewDescriptors.count == 0 ? nil : map.withSimulatedViewsMatched()
        self.init(map: map, options: options, vocabulary: vocabulary, upright: upright,
                  index: CandidateIndex(map: map, vocabulary: vocabulary, depth: depth),
                  viewing: viewing, pointUncertainty: pointUncertainty,
                  localMap: localMap, scale: scale, extractor: try options.queryExtractor(for: map),
                  widened: try widened.map { w in
                      Localizer(map: w, options: options, vocabulary: vocabulary, upright: upright,
                                index: CandidateIndex(map: w, vocabulary: vocabulary, depth: depth),
                                viewing: viewing, pointUncertainty: pointUncertainty, localMap: localMap, scale: scale,
                                extractor: try options.queryExtractor(for: w), widened: nil)
                  })
    }

    private init(map: VPSMap, options: LocalizerOptions, vocabulary: Vocabulary, upright: UprightFrame?,
                 index: CandidateIndex, viewing: ViewingDirections, pointUncertainty: PointUncertainty,
                 localMap: LocalMap, scale: MapScale, extractor: FeatureExtractor, widened: Localizer?) {
        self.map = map; self.options = options; self.vocabulary = vocabulary; self.scale = scale
        self.upright = upright
        self.index = index; self.viewing = viewing; self.pointUncertainty = pointUncertainty
        self.localMap = localMap; self.extractor = extractor; self.widened = widened
        octaveSigma = (0..<max(options.orb.levels, 1)).map { pow(Double(options.orb.scaleFactor), Double($0)) }
    }

    /// Another localizer over the same map and index with its own scratch buffers.
    public func makeWorker() throws -> Localizer {
        Localizer(map: map, options: options, vocabulary: vocabulary, upright: upright, index: index, viewing: viewing,
                  pointUncertainty: pointUncertainty, localMap: localMap, scale: scale,
                  extractor: try FeatureExtractor(extractor.type, options: extractor.options),
                  widened: try widened?.makeWorker())
    }

    /// Localizes an encoded image (JPEG or PNG).
    /// - Parameters:
    ///   - prior: `T_map_camera` predicted by tracking, or nil for single-shot.
    ///   - priorAccuracy: the 95 % bounds of `prior`'s error (`OdometryTracker.predictAccuracy`:
    ///     the last fix's accuracy plus the odometry's drift since). A pose found around a
    ///     prior can follow the prior's error; its `accuracy` includes that error
    ///     (`inheritingPriorError`). Nil (or bounds that are negative or not finite): the
    ///     pose's own bounds stand in for it, as they would for a tracker whose last fix
    ///     claimed about as much.
    ///   - near: where the camera is believed to be (a GPS reading in the map, a hint):
    ///     the keyframes within it are searched first, the whole map only when they do not
    ///     place the frame (`LocationPrior`; the result's `locationPrior` says which).
    ///   - gravity: the device's measured gravity in camera coordinates (world down, the
    ///     map's −y), or nil when unknown. Phones measure it to a fraction of a degree; it
    ///     leaves four unknowns instead of six, so pose hypotheses need two matches, not
    ///     three: frames with few correct matches (blur, dim light) become solvable, and a
    ///     pose that tilts away from it is rejected.
    /// - Throws: `LocalizationError` for input it cannot work with.
    public func localize(encoded bytes: [UInt8], intrinsics: CameraIntrinsics, prior: Pose? = nil,
                         priorAccuracy: PoseAccuracy? = nil, gravity: SIMD3<Double>? = nil,
                         near: LocationPrior? = nil) throws -> LocalizationResult {
        try localize(encoded: bytes, intrinsics: intrinsics, prior: prior, priorAccuracy: priorAccuracy, gravity: gravity,
                     near: near, cancellation: .none)
    }

    /// Localizes an encoded image, checking `cancellation` between stages (see
    /// `LocalizationCancellation`). Throws `LocalizationError.cancelled` once it is cancelled.
    public func localize(encoded bytes: [UInt8], intrinsics: CameraIntrinsics, prior: Pose? = nil,
                         priorAccuracy: PoseAccuracy? = nil, gravity: SIMD3<Double>? = nil, near: LocationPrior? = nil,
                         cancellation: LocalizationCancellation) throws -> LocalizationResult {
        if let why = intrinsics.problem { throw LocalizationError.invalidIntrinsics(why) }
        try cancellation.check()
        var watch = Stopwatch()
        let image: GrayImage
        do { image = try GrayImage(decoding: bytes, maxPixels: options.maxImagePixels) } catch {
            throw LocalizationError.image(error)
        }
        let decode = watch.lap()
        var result = try localize(image: image, intrinsics: intrinsics, prior: prior, priorAccuracy: priorAccuracy,
                                  gravity: gravity, near: near,
                                  cancellation: cancellation)
        result.timings.decode = decode
        result.timings.total += decode
        return result
    }

    /// Localizes a decoded gray image (see `localize(encoded:intrinsics:prior:gravity:cancellation:)`).
    public func localize(image: GrayImage, intrinsics: CameraIntrinsics, prior: Pose? = nil,
                         priorAccuracy: PoseAccuracy? = nil, gravity: SIMD3<Double>? = nil, near: LocationPrior? = nil,
                         cancellation: LocalizationCancellation = .none) throws -> LocalizationResult {
        if let why = intrinsics.problem { throw LocalizationError.invalidIntrinsics(why) }
        if let why = near?.problem { throw LocalizationError.invalidLocationPrior(why) }
        if let g = gravity, !(g.x.isFinite && g.y.isFinite && g.z.isFinite && length(g) > 0) {
            throw LocalizationError.invalidGravity
        }
        guard image.width == intrinsics.width, image.height == intrinsics.height else {
            throw LocalizationError.imageSizeMismatch(image: (image.width, image.height),
                                                      intrinsics: (intrinsics.width, intrinsics.height))
        }
        var watch = Stopwatch()
        let sharpened = try deblurred(image)
        var timings = StageTimings()
        timings.deblur = watch.lap()
        let region = near.map { regionKeyframes($0) }
        let first = try localize(features: sharpened ?? image, intrinsics: intrinsics, prior: prior,
                                 priorAccuracy: priorAccuracy, gravity: gravity,
                                 region: region, cancellation: cancellation, timings: timings)
        guard sharpened != nil, !first.isLocalized else { return first }
        // The smear removed is an estimate, and a wrong one can hide corners the frame had: a
        // deconvolved frame that gives no accepted pose gets its turn as it was captured.
        // Its parts and places were searched with the sharper frame: this look is the
        // whole-map search alone.
        let second = try localize(features: image, intrinsics: intrinsics, prior: prior,
                                  priorAccuracy: priorAccuracy, gravity: gravity,
                                  region: region, cancellation: cancellation, timings: StageTimings(), searchPlaces: false)
        var result = second.isLocalized ? second : first
        result.timings = first.timings + second.timings
        return result
    }

    /// Localizes `image` as it is (`localize(image:…)` after the motion-blur stage), its
    /// stage times added to `timings`.
    private func localize(features image: GrayImage, intrinsics: CameraIntrinsics, prior: Pose?,
                          priorAccuracy: PoseAccuracy?,
                          gravity: SIMD3<Double>?, region: [Int]?, cancellation: LocalizationCancellation,
                          timings: StageTimings, searchPlaces: Bool = true) throws -> LocalizationResult {
        var timings = timings
        var watch = Stopwatch()
        let features: FeatureSet
        let keypoints: [Keypoint]
        do {
            features = try extractor.extract(image)
            keypoints = intrinsics.distortion.isEmpty ? features.keypoints : try intrinsics.undistort(features.keypoints)
        } catch { throw LocalizationError.image(error) }
        timings.extract = watch.lap()
        try cancellation.check()
        // A gravity the map cannot be related to (its up is unknown) is ignored: the frame is
        // localized from the image alone.
        let query = Query(features: features, keypoints: keypoints, camera: intrinsics,
                          gravity: upright == nil ? nil : gravity.map { normalize($0) })
        let (first, searches) = try localize(query, prior: prior, priorAccuracy: priorAccuracy, region: region,
                                             cancellation: cancellation, timings: timings, searchPlaces: searchPlaces)
        guard !first.isLocalized, let widened else { return first }
        // The photos' own descriptors did not place the frame: its features are matched
        // again with the simulated views' among them. Every search of both counts against
        // chance.
        let (second, _) = try widened.localize(query, prior: prior, priorAccuracy: priorAccuracy, region: region,
                                               cancellation: cancellation, timings: StageTimings(),
                                               searchPlaces: searchPlaces, searchesBefore: searches)
        var result = second.isLocalized ? second : first
        result.timings = first.timings + second.timings
        return result
    }

    /// Localizes a frame's extracted features (`localize(features:…)` after extraction).
    /// `searchesBefore`: the global searches another localizer ran on this frame already,
    /// which each pose's test against chance counts too. Returns the result and the global
    /// searches counted.
    private func localize(_ query: Query, prior: Pose?, priorAccuracy: PoseAccuracy?, region: [Int]?,
                          cancellation: LocalizationCancellation, timings: StageTimings, searchPlaces: Bool,
                          searchesBefore: Int = 0) throws -> (LocalizationResult, searches: Int) {
        var query = query
        var timings = timings

        // Evidence first: a pose from matches that stand on their own. Guided matching
        // around a pose finds support for almost any pose (repeated texture, small
        // candidate sets), so it only ever refines a pose that independent matches found —
        // global ratio-test matches, or a prior-guided pose that agrees with the prior — and
        // the grown pose is judged on that independent evidence (`PoseAcceptance`).
        if let prior, let a = try priorSeed(query, around: prior, timings: &timings), let e = a.estimate,
           agrees(e.pose, with: prior) {
            let grown = try grow(a, query, timings: &timings)
            var watch = Stopwatch()
            var check = Stopwatch()
            var rejection = priorRejection(grown, query)
            timings.judging.significance += check.lap()
            var accuracy: PoseAccuracy?, refined: Pose?
            if rejection == nil {
                let u = uncertainty(of: grown, query)
                (accuracy, rejection) = bounds(u)
                refined = u.pose?.pose
                timings.judging.uncertainty += check.lap()
                if let bounds = accuracy {
                    (accuracy, rejection) = inheritingSeedError(bounds, answer: refined ?? grown.estimate!.pose, grown: grown, seed: a, query)
                }
                if let own = accuracy {
                    let stated = priorAccuracy.flatMap { $0.problem == nil ? $0 : nil }
                    (accuracy, rejection) = inheritingPriorError(own, prior: prior, priorError: stated ?? own,
                                                                 uncertainty: u, query)
                }
                timings.judging.inheritance += check.lap()
            }
            timings.verify += watch.lap()
            if rejection == nil {
                return (finish(grown, rejection: nil, evidence: nil, accuracy: accuracy, refined: refined, query,
                               usedPrior: true, timings: timings), searchesBefore)
            }
            // A pose the prior's matches do not pin down is not the last word: the frame is
            // searched from the image alone, as a frame without a prior would be.
        }
        // Each global pose with a few inliers is grown at once and judged; the multi-probe
        // search, costlier, runs only while none is accepted (`GlobalSearchStateMachine`).
        let gate = query.gravity == nil ? options.seedInliers : options.seedInliersWithGravity
        let placeSearch = searchPlaces && index.depth > 0 && !exhaustive
            && options.places.applies(toKeyframes: map.keyframes.count, parts: localMap.parts.count)
        // A location prior's keyframes are searched first, unless there are none or they are
        // the whole map (then the prior narrows nothing).
        let narrowed = region.flatMap { $0.isEmpty || $0.count == map.keyframes.count ? nil : $0 }
        var machine = GlobalSearchStateMachine<Attempt, Verdict>(
            probes: fallbackProbes, exhaustive: exhaustive, placeSearch: placeSearch,
            maxPlaces: options.places.maxPlaces, maxParts: min(localMap.parts.count, options.places.maxParts),
            seedInliers: gate, region: narrowed)
        func priorUse(localized: Bool) -> LocationPriorUse? {
            guard let region else { return nil }
            if region.isEmpty { return .outsideMap }
            // A prior that holds the whole map: every search was within it.
            return localized && (narrowed == nil || machine.answeredWithinRegion) ? .narrowed : .notConfirmed
        }
        if index.depth > 0 {
            var watch = Stopwatch()
            query.nodes = query.features.descriptors.withUnsafeBytes { vocabulary.nodes(for: $0, atDepth: index.depth) }
            timings.retrieve += watch.lap()
        }
        var voters: [DescriptorMatch] = []
        var action = machine.start()
        while true {
            switch action {
            case .search(let search):
                try cancellation.check()
                if query.probeBuckets == nil, let p = search.probes {
                    var watch = Stopwatch()
                    query.probeBuckets = index.buckets(forProbes: query.features.descriptors.withUnsafeBytes {
                        vocabulary.probes($0, nodeDepth: index.depth, maxProbes: p.maxProbes, slackBits: p.slackBits)
                    })
                    timings.retrieve += watch.lap()
                }
                let a = try globalAttempt(query, search: search, keepNearest: placeSearch, timings: &timings)
                voters += a.nearest
                action = machine.searched(a, inliers: a.inliers)
            case .findPlaces:
                var watch = Stopwatch()
                let found = places(voters: voters)
                timings.retrieve += watch.lap()
                action = machine.placesFound(found.places, parts: found.parts)
            case .growAndJudge(let seed):
                let grown = try grow(seed, query, timings: &timings)
                var watch = Stopwatch()
                let verdict = judge(grown, seed: seed, query, searches: searchesBefore + machine.plannedSearches,
                                    clock: &timings.judging)
                timings.verify += watch.lap()
                action = machine.judged(verdict, accepted: verdict.rejection == nil,
                                        log10NFA: verdict.evidence.log10NFA)
            case .finish(let best):
                var result = finish(best.attempt, rejection: best.rejection, evidence: best.evidence, accuracy: best.accuracy,
                                    refined: best.refined, query, usedPrior: false, timings: timings)
                result.locationPrior = priorUse(localized: result.isLocalized)
                return (result, searchesBefore + machine.plannedSearches)
            case .finishWithoutPose(let strongest):
                let why = strongest?.estimate == nil ? "no pose: \(strongest?.matches.count ?? 0) tentative matches"
                    : "too few inliers to judge (\(strongest?.inliers ?? 0) < \(gate))"
                var result = finish(strongest, rejection: why, evidence: nil, accuracy: nil, refined: nil, query,
                                    usedPrior: false, timings: timings)
                result.locationPrior = priorUse(localized: false)
                return (result, searchesBefore + machine.plannedSearches)
            }
        }
    }

    /// `image` without its motion blur when it is smeared (`LocalizerOptions.motionDeblur`),
    /// else nil.
    private func deblurred(_ image: GrayImage) throws -> GrayImage? {
        let o = options.motionDeblur
        guard o.enabled, image.width >= 16, image.height >= 16, image.width * image.height <= o.maxPixels else { return nil }
        do {
            return try image.removingMotionBlur(minAnisotropy: o.minAnisotropy, minLength: o.minLength,
                                                noiseToSignal: o.noiseToSignal).image
        } catch { throw LocalizationError.image(error) }
    }

    /// The places a frame may show, best first, each as the keyframes whose points it holds:
    /// a keyframe and the keyframes around it (`LocalMap`). Keyframes are ranked by the votes
    /// of their place (`LocalMap.placeVotes(for:)`): every feature's nearest map point
    /// (`nearest`, of the whole-map searches; no ratio test: among look-alikes it would fail)
    /// gives one vote, shared among the keyframes that observe it. Look-alike content spreads
    /// its votes over every room that has it; a room's own content concentrates them. (On a
    /// 1 M-point building, of the 23 frames of its walk and blurred sessions that reached the
    /// place search, the right place was among the first three for 11 by place votes, for 6
    /// by each keyframe's own votes.) A seed already inside an earlier place is skipped.
    /// On a venue of separate captures, its parts instead, most voted first, and no place
    /// (the parts take the places' turn: `GlobalSearchStateMachine`).
    private func places(voters nearest: [DescriptorMatch]) -> (places: [[Int]], parts: [[Int]]) {
        let p = options.places
        let own = localMap.keyframeVotes(for: nearest.lazy.filter { $0.distance <= p.maxVoteDistance }.map(\.train))
        let parts = localMap.parts
        if parts.count > 0 {
            return ([], parts.ranked(byKeyframeVotes: own).prefix(p.maxParts).map { parts.keyframes[$0] })
        }
        let votes = localMap.placeVotes(keyframeVotes: own)
        let ranked = votes.indices.filter { votes[$0] > 0 }.sorted { (votes[$0], $1) > (votes[$1], $0) }
        var covered = Set<Int>()
        var places: [[Int]] = []
        for seed in ranked.prefix(p.rankedKeyframes) where !covered.contains(seed) {
            let keyframes = localMap.place(of: seed)
            covered.formUnion(keyframes)
            places.append(keyframes)
            if places.count == p.maxPlaces { break }
        }
        return (places, [])
    }

    /// The keyframes a location prior holds: those taken within its radius (horizontally
    /// when the prior or the map knows up).
    private func regionKeyframes(_ near: LocationPrior) -> [Int] {
        map.keyframes.indices.filter { near.distance(to: map.keyframes[$0].pose.center, mapUp: upright?.up) <= near.radius }
    }

    /// Whether a frame the word search does not place is matched against every map point
    /// (`LocalizerOptions.wholeMapMatchingMaxPoints`). At depth 0, the root, the word search
    /// already compares every point.
    private var exhaustive: Bool { index.depth > 0 && options.matchesWholeMap(points: map.points.count) }

    /// The multi-probe fallback, unless the candidates are already the whole map or every
    /// point is searched next (`exhaustive`).
    private var fallbackProbes: VocabularyProbes? { index.depth > 0 && !exhaustive ? options.fallbackProbes : nil }

    /// Guided passes from an evidence pose: the pose predicts where each local-map point
    /// should appear, which finds matches the first search missed (often the near, most
    /// informative ones) and tightens the pose. A pass counts only while the evidence's own
    /// inliers still agree with its pose. Returns the last pass that counted (or `evidence`).
    func grow(_ evidence: Attempt, _ query: Query, timings: inout StageTimings) throws -> Attempt {
        var best = evidence
        var inner = StageTimings()
        var watch = Stopwatch()
        var points = localPoints(around: evidence.estimate!.pose, inliersOf: evidence)
        let local = points
        inner.retrieve += watch.lap()
        for (pass, search) in options.refineSearches.enumerated() {
            let (found, candidates) = try guidedAttempt(query, around: best.estimate!.cameraFromWorld, search: search,
                                                        localPoints: points, timings: &inner)
            if pass + 1 < options.refineSearches.count {
                watch = Stopwatch()
                points = localMap.distinct(candidates.indices)
                inner.retrieve += watch.lap()
            }
            // A tighter pass may drop a few coarse-level inliers the wider one admitted;
            // it still counts if it keeps nine in ten.
            guard let next = found, let e = next.estimate, 10 * next.inliers >= 9 * best.inliers,
                  supportFraction(of: evidence, under: e.cameraFromWorld, query) >= options.minEvidenceSupport
            else { break }
            let moved = meanShift(of: next, from: best.estimate!.cameraFromWorld, to: e.cameraFromWorld, query.camera)
            best = next
            // Converged: a tighter pass around (almost) the same pose finds the same matches.
            if moved < options.guidedConvergencePixels { break }
        }
        timings.refine += inner.retrieve + inner.match + inner.solve
        timings.guided.candidates += inner.retrieve; timings.guided.match += inner.match
        timings.guided.solve += inner.solve
        best.localPoints = local
        return best
    }

    // MARK: - Stages

    /// What one frame brings: its features (keypoints undistorted) and what the device knows.
    struct Query {
        var features: FeatureSet
        var keypoints: [Keypoint]
        var camera: CameraIntrinsics
        /// Unit gravity in camera coordinates, when measured.
        var gravity: SIMD3<Double>?
        /// Each feature's vocabulary node at the candidate index's depth
        /// (quantized once, for the place search and the global searches).
        var nodes: [UInt32] = []
        /// Each feature's probed nodes (`VocabularyProbes`), computed by the first search
        /// that probes and kept for the parts and places searched after it.
        var probeBuckets: CandidateLists?
    }

    /// The outcome of one candidate search + match + robust solve.
    struct Attempt {
        var estimate: PoseEstimate?
        var matches: [DescriptorMatch]
        /// The local map the pose was grown against (nil before growing).
        var localPoints: [Int32]? = nil
        /// Every feature's nearest map point, ratio test or not (kept by the whole-map
        /// searches for the place search; `train` is the map point).
        var nearest: [DescriptorMatch] = []
        var inliers: Int { estimate?.inlierCount ?? 0 }
        /// The matches the pose counts as inliers (none without a pose).
        var inlierMatches: some Sequence<DescriptorMatch> {
            zip(matches, estimate?.inliers ?? []).lazy.filter(\.1).map(\.0)
        }
    }


    /// Global matching through the vocabulary index.
    private func globalAttempt(_ query: Query, search: GlobalSearch, keepNearest: Bool = false,
                               timings: inout StageTimings) throws -> Attempt {
        var watch = Stopwatch()
        let descriptors = query.features.descriptors
        let buckets: CandidateLists
        var bucketOffsets = index.bucketOffsets
        let ratio: Float
        var mask: [UInt8]?
        switch search {
        case .place(let keyframes):
            buckets = index.buckets(forNodes: query.nodes.isEmpty
                                    ? descriptors.withUnsafeBytes { vocabulary.nodes(for: $0, atDepth: index.depth) } : query.nodes)
            ratio = options.globalRatio
            mask = index.mask(observedBy: keyframes, in: map)
        case .words:
            buckets = index.buckets(forNodes: query.nodes.isEmpty
                                    ? descriptors.withUnsafeBytes { vocabulary.nodes(for: $0, atDepth: index.depth) } : query.nodes)
            ratio = options.globalRatio
        case .probes(let p):
            buckets = query.probeBuckets!
            ratio = p.ratio
        case .placeProbes(let keyframes, let p):
            buckets = query.probeBuckets!
            ratio = p.ratio
            mask = index.mask(observedBy: keyframes, in: map)
        case .everyPoint:
            (bucketOffsets, buckets) = index.everySlot(queries: query.keypoints.count)
            ratio = options.globalRatio
        }
        timings.retrieve += watch.lap()
        // The whole-map searches keep every feature's nearest point for the place search, and
        // apply the ratio test themselves (as the matcher would: d1 < ratio · d2).
        var nearest: [DescriptorMatch] = []
        let keep = keepNearest && search.isWholeMap
        var matches = try DescriptorMatcher(ratio: keep ? nil : ratio)
            .match(query: descriptors, train: index.descriptors, bucketOffsets: bucketOffsets, buckets: buckets,
                   trainGroups: index.points, trainMask: mask)
        for k in matches.indices { matches[k].train = index.point(inSlot: matches[k].train) }
        if keep {
            nearest = matches
            matches = matches.filter { m in m.secondDistance.map { Float(m.distance) < ratio * Float($0) } ?? true }
        }
        timings.match += watch.lap()
        var ransac = options.ransac
        // A word search stops early when another follows it: the probes, or every point
        // (whenever the index is below the root).
        if case .words = search, index.depth > 0, let probes = options.fallbackProbes {
            ransac.maxIterations = min(ransac.maxIterations, probes.plainSearchMaxIterations)
        }
        var attempt = solve(matches, query, gravity: query.gravity, ransac: ransac)
        attempt.nearest = nearest
        timings.solve += watch.lap()
        return attempt
    }

    /// The seed a tracking prior gives (`priorSearch` around it), when it passes
    /// `priorRejection`; nil otherwise.
    func priorSeed(_ query: Query, around prior: Pose, timings: inout StageTimings) throws -> Attempt? {
        guard let a = try guidedAttempt(query, around: CameraFromWorld(prior), search: options.priorSearch,
                                        localPoints: localPoints(around: prior, inliersOf: nil), timings: &timings).attempt,
              priorRejection(a, query) == nil else { return nil }
        return a
    }

    private func guidedAttempt(_ query: Query, around pose: CameraFromWorld, search: ProjectionSearch,
                               localPoints: [Int32],
                               timings: inout StageTimings) throws -> (attempt: Attempt?, candidates: CandidateLists) {
        var watch = Stopwatch()
        var search = search
        search.minDepth = scale(options.projectionDepth.lowerBound)
        search.maxDepth = scale(options.projectionDepth.upperBound)
        let lists = try search.candidates(prior: pose, camera: query.camera, worldPoints: map.points.positions,
                                          viewingDirections: viewing.xyz, subset: localPoints,
                                          keypoints: query.keypoints)
        timings.retrieve += watch.lap()
        let matcher = DescriptorMatcher(ratio: options.guidedRatio, maxDistance: options.guidedMaxDistance)
        let matches = try matcher.match(query: query.features.descriptors, train: map.points.descriptors,
                                        candidates: lists)
        timings.match += watch.lap()
        guard matches.count >= options.seedInliers else { return (nil, lists) }
        let attempt = solve(matches, query, gravity: query.gravity)
        timings.solve += watch.lap()
        return (attempt, lists)
    }

    /// Mean image displacement (pixels) of `a`'s inliers between two poses.
    private func meanShift(of a: Attempt, from p: CameraFromWorld, to q: CameraFromWorld,
                           _ camera: CameraIntrinsics) -> Double {
        var sum = 0.0, n = 0
        for m in a.inlierMatches {
            let x = map.points.position(m.train)
            guard let u = camera.project(p.apply(x)), let v = camera.project(q.apply(x)) else { continue }
            sum += ((u - v) * (u - v)).sum().squareRoot()
            n += 1
        }
        return n > 0 ? sum / Double(n) : .infinity
    }

    /// The local map around `pose` (and the keyframes that see `attempt`'s inliers).
    func localPoints(around pose: Pose, inliersOf attempt: Attempt?) -> [Int32] {
        let inlierPoints = attempt.map { Array($0.inlierMatches.map(\.train)) } ?? []
        return localMap.points(observedBy: localMap.keyframes(around: pose, inlierPoints: inlierPoints), in: map)
    }

    /// Robust pose from `matches`. A pose whose inliers include points it could not
    /// plausibly see (far outside their mapped viewing directions) loses those inliers;
    /// when too few remain, the implausible matches are dropped and the solve repeats, so
    /// a mirror pose cannot hide a true one with fewer inliers.
    func solve(_ all: [DescriptorMatch], _ query: Query, gravity: SIMD3<Double>?,
               ransac: RansacOptions? = nil) -> Attempt {
        let keypoints = query.keypoints
        var matches = all
        let minCos = cos(options.maxViewingAngle * .pi / 180)
        for _ in 0..<3 {
            guard matches.count >= 4 else { break }
            let pixels = matches.map { keypoints[$0.query].position }
            let world = matches.map { map.points.position($0.train) }
            let sigmas = matches.map { octaveSigma[min(keypoints[$0.query].octave, octaveSigma.count - 1)] }
            // The upright solver takes world down as −y: solve a map with another up in its
            // upright frame, then rotate the pose back.
            let rotate = gravity != nil && upright.map { !$0.isIdentity } == true ? upright : nil
            guard var e = try? AbsolutePoseEstimator(options: ransac ?? options.ransac)
                .estimate(pixels: pixels, worldPoints: rotate.map { r in world.map { r.fromMap * $0 } } ?? world,
                          camera: query.camera, sigmas: sigmas, gravity: gravity) else { break }
            if let r = rotate {
                e.cameraFromWorld.rotation = e.cameraFromWorld.rotation * r.fromMap
                e.pose = e.cameraFromWorld.pose
            }
            let centre = e.pose.center
            var implausible = Set<Int>()
            for (k, m) in matches.enumerated() where e.inliers[k] {
                if !viewing.isPlausible(point: m.train, at: world[k], from: centre, minCos: minCos) { implausible.insert(k) }
            }
            if implausible.isEmpty { return Attempt(estimate: e, matches: matches) }
            e.inlierCount -= implausible.count
            for k in implausible { e.inliers[k] = false }
            if e.inlierCount >= options.seedInliers, e.inlierCount >= 2 * implausible.count {
                return Attempt(estimate: e, matches: matches)
            }
            matches = matches.enumerated().filter { !implausible.contains($0.offset) }.map(\.element)
        }
        return Attempt(estimate: nil, matches: all)
    }

    /// The frame's result for `a` (nil: no pose at all), rejected when `rejection` says why.
    /// An accepted answer gives `refined` (the pose its `accuracy` describes) when there is one.
    private func finish(_ a: Attempt?, rejection: String?, evidence: PoseEvidence?, accuracy: PoseAccuracy?,
                        refined: Pose?, _ query: Query, usedPrior: Bool, timings: StageTimings) -> LocalizationResult {
        var timings = timings
        timings.total = timings.deblur + timings.extract + timings.retrieve + timings.match + timings.solve + timings.refine + timings.verify
        let matches = a?.matches.count ?? 0
        var result: LocalizationResult
        if let why = rejection ?? (a?.estimate == nil ? "no pose: \(matches) tentative matches" : nil) {
            result = LocalizationResult(status: .rejected, inliers: a?.inliers ?? 0, matches: matches,
                                        reprojectionError: a?.estimate?.rmsError ?? 0, reason: why,
                                        usedPrior: usedPrior, timings: timings)
            result.evidence = evidence
            result.evidence?.candidate = a?.estimate?.pose
        } else {
            let e = a!.estimate!
            result = LocalizationResult(status: .localized, pose: refined ?? e.pose,
                                        sectionId: majoritySection(of: a!) ?? sectionContaining(e.pose.center),
                                        inliers: e.inlierCount, matches: matches, reprojectionError: e.rmsError,
                                        usedPrior: usedPrior, timings: timings)
            result.accuracy = accuracy
            result.evidence = evidence
            if let georeference = map.metadata.georeference, let pose = result.pose {
                result.geoPose = georeference.geoPose(cameraToMap: pose)
                result.geoAccuracy = accuracy.map { GeoAccuracy.combined($0, georeference, at: pose.center) }
            }
        }
        if let a {
            let keypoints = query.features.keypoints
            result.inlierMatches = a.inlierMatches.map { m in
                LocalizationResult.InlierMatch(pixel: SIMD2(keypoints[m.query].x, keypoints[m.query].y), point: Int32(m.train))
            }
        }
        return result
    }

    /// The section most inlier points belong to.
    private func majoritySection(of a: Attempt) -> String? {
        var votes: [Int32: Int] = [:]
        for m in a.inlierMatches {
            let s = map.points.sections[m.train]
            if s >= 0 { votes[s, default: 0] += 1 }
        }
        guard let best = votes.max(by: { ($0.value, -$0.key) < ($1.value, -$1.key) }) else { return nil }
        let i = Int(best.key)
        return i < map.scene.sections.count ? map.scene.sections[i].id : nil
    }

    private func sectionContaining(_ p: SIMD3<Double>) -> String? {
        map.scene.sections.first { $0.contains(p) }?.id
    }
}
