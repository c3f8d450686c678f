/// How global matching picks each feature's candidate points.
enum GlobalSearch: Hashable, Sendable {
    /// The points under the feature's own vocabulary node, among the points of one place
    /// (a mask over the index's slots; the keyframes of that place).
    case place([Int])
    /// The points under every node the feature probes, among the points of one place.
    case placeProbes([Int], VocabularyProbes)
    /// The points under the feature's own vocabulary node.
    case words
    /// The points under every node the feature probes (see `VocabularyProbes`).
    case probes(VocabularyProbes)
    /// Every map point: on a map small enough (`LocalizerOptions.wholeMapMatchingMaxPoints`),
    /// the search that loses no right match to the vocabulary.
    case everyPoint

    /// The probes it matches through, if it probes.
    var probes: VocabularyProbes? {
        switch self {
        case .probes(let p), .placeProbes(_, let p): p
        case .words, .place, .everyPoint: nil
        }
    }

    /// True for a search over the whole map (its nearest points vote for places).
    var isWholeMap: Bool {
        switch self {
        case .words, .probes, .everyPoint: true
        case .place, .placeProbes: false
        }
    }
}

/// The localizer's decisions for one frame without a usable prior, as a pure state machine
/// in the swift-nio style: the localizer reports what each step found, the machine answers
/// with the next action. It decides which global search runs next, which poses are grown
/// and judged, which verdict is kept, and when to stop, so those decisions are tested
/// without images (`GlobalSearchStateMachineTests`).
///
/// The order: with a location prior, its keyframes alone (words, then probes); then the
/// plain word search over the whole map, then (when the map has a vocabulary index) the
/// multi-probe search, or, on a map small enough, every map point; then, on a venue of
/// several parts (captures joined by `map merge`), each part alone, most voted first, or,
/// on a map of one part but many keyframes, the places the whole-map searches' nearest
/// points vote for, each with words and then probes. A venue's parts take the places' turn: look-alike captures spread those votes
/// nearly evenly over the venue, so the places they rank are no better than any others,
/// and every part has been searched alone already. A search whose pose
/// has at least `seedInliers` inliers has it grown and judged; the first accepted verdict
/// stops the frame. Otherwise the rejected verdict with the strongest evidence (lowest NFA)
/// is the answer, or, when no pose reached the seed count, the attempt with most inliers.
///
/// `Attempt` and `Verdict` are what the localizer carries along; the machine only keeps them.
struct GlobalSearchStateMachine<Attempt, Verdict> {
    enum Action {
        /// Run this search (candidates, matching, robust solve); report `searched(_:inliers:)`.
        case search(GlobalSearch)
        /// Rank places by the whole-map searches' votes; report `placesFound(_:)`.
        case findPlaces
        /// Grow this attempt's pose and judge it; report `judged(_:accepted:log10NFA:)`.
        case growAndJudge(Attempt)
        /// Answer with this verdict: the accepted one, or the strongest rejected one.
        case finish(Verdict)
        /// No search gave a pose to judge: answer with the attempt that had most inliers
        /// (nil when no search ran).
        case finishWithoutPose(strongest: Attempt?)
    }

    private var searches: [GlobalSearch]
    /// The searches of the location prior's keyframes, which come first.
    private let regionSearches: Int
    /// The index after the last whole-map search (the place search follows it).
    private let wholeMapSearches: Int
    private let placeSearch: Bool
    private let placeProbes: VocabularyProbes?
    private let seedInliers: Int
    private var next = 0
    /// The attempt of the last search, held while the places are found.
    private var pending: (attempt: Attempt, inliers: Int)?
    private var best: (verdict: Verdict, accepted: Bool, log10NFA: Double)?
    private var strongestFailed: (attempt: Attempt, inliers: Int)?

    /// Every search that may run: each pose's test against chance counts them all.
    let plannedSearches: Int

    /// - Parameters:
    ///   - probes: the multi-probe search after the plain one, if the map has an index.
    ///   - exhaustive: whether every map point is searched after the vocabulary's searches.
    ///   - placeSearch: whether the places are searched after the whole map.
    ///   - maxPlaces: how many places at most (for `plannedSearches`).
    ///   - maxParts: how many parts of a venue at most (for `plannedSearches`).
    ///   - seedInliers: the inliers a pose needs to be grown and judged.
    ///   - region: the keyframes of a location prior, searched before the whole map; nil
    ///     without one.
    init(probes: VocabularyProbes?, exhaustive: Bool = false, placeSearch: Bool, maxPlaces: Int, maxParts: Int = 0,
         seedInliers: Int, region: [Int]? = nil) {
        let first: [GlobalSearch] = region.map { r in [.place(r)] + (probes.map { [.placeProbes(r, $0)] } ?? []) } ?? []
        searches = first + [.words] + (probes.map { [.probes($0)] } ?? []) + (exhaustive ? [.everyPoint] : [])
        regionSearches = first.count
        wholeMapSearches = searches.count
        self.placeSearch = placeSearch
        placeProbes = probes
        self.seedInliers = seedInliers
        plannedSearches = searches.count + (placeSearch ? (maxParts > 0 ? maxParts : maxPlaces * (probes == nil ? 1 : 2)) : 0)
    }

    /// The first action.
    mutating func start() -> Action { advance() }

    /// A search has run; `inliers` is its pose's inlier count (0 without a pose).
    mutating func searched(_ attempt: Attempt, inliers: Int) -> Action {
        if placeSearch, next == wholeMapSearches {
            pending = (attempt, inliers)
            return .findPlaces
        }
        return gate(attempt, inliers: inliers)
    }

    /// The places found after the whole-map searches, best first (each its keyframes), and
    /// the parts of a venue joined from separate captures. A venue's parts are searched
    /// instead of the places, each once: with the probes when the map has an index (they
    /// include each feature's own node), else with the words.
    mutating func placesFound(_ places: [[Int]], parts: [[Int]] = []) -> Action {
        if parts.isEmpty {
            searches += places.map { GlobalSearch.place($0) } + (placeProbes.map { p in places.map { .placeProbes($0, p) } } ?? [])
        } else {
            searches += parts.map { part in placeProbes.map { GlobalSearch.placeProbes(part, $0) } ?? .place(part) }
        }
        guard let (attempt, inliers) = pending else { preconditionFailure("placesFound(_:) answers .findPlaces") }
        pending = nil
        return gate(attempt, inliers: inliers)
    }

    /// A grown pose has been judged. It becomes the answer if it is accepted or has
    /// stronger evidence (lower NFA) than the verdict kept so far.
    mutating func judged(_ verdict: Verdict, accepted: Bool, log10NFA: Double) -> Action {
        if best.map({ accepted || log10NFA < $0.log10NFA }) ?? true {
            best = (verdict, accepted, log10NFA)
            // `next` is one past the search whose pose was judged.
            answeredWithinRegion = next <= regionSearches
        }
        return advance()
    }

    /// Whether the verdict kept came from a search of the location prior's keyframes.
    private(set) var answeredWithinRegion = false

    private mutating func gate(_ attempt: Attempt, inliers: Int) -> Action {
        if inliers >= seedInliers { return .growAndJudge(attempt) }
        if strongestFailed.map({ inliers > $0.inliers }) ?? true { strongestFailed = (attempt, inliers) }
        return advance()
    }

    private mutating func advance() -> Action {
        if let best, best.accepted { return .finish(best.verdict) }
        guard next < searches.count else {
            if let best { return .finish(best.verdict) }
            return .finishWithoutPose(strongest: strongestFailed?.attempt)
        }
        next += 1
        return .search(searches[next - 1])
    }
}
