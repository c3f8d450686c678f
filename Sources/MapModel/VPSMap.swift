import Geometry
import Vision
import VPSModel

/// A map ready to localize against, held in memory.
///
/// Built by `MapBuilder`, stored as one SQLite file by `write(to:)`, read back by
/// `VPSMap.load(from:)`. Points are contiguous arrays (`MapPoints`); observations are
/// sorted by keyframe; the vocabulary's inverted index (`wordIndex`) is rebuilt on load
/// from the points' words, so it costs no space in the file.
public struct VPSMap: Sendable {
    public var metadata: MapMetadata
    /// Sections, AR objects and the navigation graph.
    public private(set) var scene: SceneContent
    public let keyframes: [MapKeyframe]
    public private(set) var points: MapPoints
    /// Every observation, sorted by keyframe, then point.
    public let observations: [MapObservation]
    /// `keyframeObservationOffsets[k]..<keyframeObservationOffsets[k+1]` are keyframe k's observations.
    public let keyframeObservationOffsets: [Int]
    /// The retrieval vocabulary, trained on the points' descriptors; nil for a map without points.
    public let vocabulary: Vocabulary?
    /// Word → points. Empty when there is no vocabulary.
    public let wordIndex: WordIndex
    /// Every descriptor each point can be matched by (one per distinct viewing direction;
    /// at least the point's representative), grouped by point.
    public private(set) var viewDescriptors: MapViewDescriptors
    /// Descriptors of points seen in simulated views of their keyframes (ASIFT's tilts,
    /// `map build --affine-views`), grouped by point; `.none` for most maps. They are kept
    /// apart from `viewDescriptors` so that a query is matched against the photos' own
    /// descriptors first and against these only when that fails (`Localizer`).
    public private(set) var simulatedViewDescriptors: MapViewDescriptors

    /// Assembles a map and checks that its parts agree (indices in range, words within
    /// the vocabulary). Observations may come in any order. Without `viewDescriptors`
    /// each point is matched by its representative descriptor alone.
    public init(metadata: MapMetadata, scene: SceneContent = SceneContent(), keyframes: [MapKeyframe],
                points: MapPoints, observations: [MapObservation], vocabulary: Vocabulary?,
                viewDescriptors: MapViewDescriptors? = nil, simulatedViewDescriptors: MapViewDescriptors = .none) throws {
        let inOrder = zip(observations, observations.dropFirst()).allSatisfy {
            ($0.keyframe, $0.point) < ($1.keyframe, $1.point)
        }
        let sorted = inOrder ? observations : observations.sorted { ($0.keyframe, $0.point) < ($1.keyframe, $1.point) }
        try Self.check(scene: scene, keyframes: keyframes, points: points, observations: sorted, vocabulary: vocabulary)
        let views = viewDescriptors ?? MapViewDescriptors(representativesOf: points)
        if let problem = views.problem(pointCount: points.count, wordCount: vocabulary?.wordCount ?? 1) {
            throw MapInconsistency(problem)
        }
        if let problem = simulatedViewDescriptors.problem(pointCount: points.count, wordCount: vocabulary?.wordCount ?? 1,
                                                          everyPoint: false) {
            throw MapInconsistency("simulated views: \(problem)")
        }
        self.init(unchecked: metadata, scene: scene, keyframes: keyframes, points: points,
                  sortedObservations: sorted, vocabulary: vocabulary, viewDescriptors: views,
                  simulatedViewDescriptors: simulatedViewDescriptors)
    }

    init(unchecked metadata: MapMetadata, scene: SceneContent, keyframes: [MapKeyframe], points: MapPoints,
         sortedObservations: [MapObservation], vocabulary: Vocabulary?, viewDescriptors: MapViewDescriptors,
         simulatedViewDescriptors: MapViewDescriptors) {
        self.metadata = metadata
        self.scene = scene
        self.keyframes = keyframes
        self.points = points
        self.observations = sortedObservations
        var offsets = [Int](repeating: 0, count: keyframes.count + 1)
        for o in sortedObservations { offsets[Int(o.keyframe) + 1] += 1 }
        for k in 0..<keyframes.count { offsets[k + 1] += offsets[k] }
        self.keyframeObservationOffsets = offsets
        self.vocabulary = vocabulary
        self.wordIndex = WordIndex(words: vocabulary == nil ? [] : points.words, wordCount: vocabulary?.wordCount ?? 0)
        self.viewDescriptors = viewDescriptors
        self.simulatedViewDescriptors = simulatedViewDescriptors
    }

    /// This map with its simulated-view descriptors among its own (`viewDescriptors`), and
    /// none apart: what a query is matched against once the photos' own descriptors fail.
    public func withSimulatedViewsMatched() -> VPSMap {
        // Points, observations and words are shared: the offsets and the word index stand.
        var merged = self
        merged.viewDescriptors = viewDescriptors.merging(simulatedViewDescriptors)
        merged.simulatedViewDescriptors = .none
        return merged
    }

    /// Observations made in keyframe `k`.
    public func observations(inKeyframe k: Int) -> ArraySlice<MapObservation> {
        observations[keyframeObservationOffsets[k]..<keyframeObservationOffsets[k + 1]]
    }

    /// The id of point `i`'s section, or nil.
    public func sectionId(ofPoint i: Int) -> String? {
        let s = Int(points.sections[i])
        return s >= 0 && s < scene.sections.count ? scene.sections[s].id : nil
    }

    /// Replaces sections, AR objects and navigation graph; points and keyframes are
    /// re-assigned to the new sections (`SectionAssignment.reassign`).
    public mutating func replaceScene(_ content: SceneContent) throws {
        if let problem = content.problem { throw MapInconsistency(problem) }
        let remapped = SectionAssignment.reassign(points: points, keyframes: keyframes,
                                                  from: scene.sections, to: content.sections)
        points.setSections(remapped.points)
        scene = content
        // Keyframes are `let` for the localizer's sake; rebuild them here.
        self = VPSMap(unchecked: metadata, scene: content,
                      keyframes: zip(keyframes, remapped.keyframes).map { kf, s in
                          var k = kf; k.section = s; return k
                      },
                      points: points, sortedObservations: observations, vocabulary: vocabulary,
                      viewDescriptors: viewDescriptors, simulatedViewDescriptors: simulatedViewDescriptors)
    }

    static func check(scene: SceneContent, keyframes: [MapKeyframe], points: MapPoints,
                      observations: [MapObservation], vocabulary: Vocabulary?) throws {
        if let problem = scene.problem { throw MapInconsistency(problem) }
        let sectionCount = scene.sections.count
        for (i, kf) in keyframes.enumerated() {
            if let p = kf.intrinsics.problem { throw MapInconsistency("keyframe \(i) '\(kf.name)': \(p)") }
            if let s = kf.section, !(0..<sectionCount).contains(s) {
                throw MapInconsistency("keyframe \(i) refers to section \(s) of \(sectionCount)")
            }
        }
        if !points.positions.allSatisfy(\.isFinite) { throw MapInconsistency("a point position is not finite") }
        if let s = points.sections.first(where: { $0 < -1 || Int($0) >= sectionCount }) {
            throw MapInconsistency("a point refers to section \(s) of \(sectionCount)")
        }
        let words = vocabulary?.wordCount ?? 1
        if let w = points.words.first(where: { Int($0) >= words }) {
            throw MapInconsistency("a point has word \(w) but the vocabulary has \(words)")
        }
        if !points.isEmpty && vocabulary == nil { throw MapInconsistency("a map with points needs a vocabulary") }
        var seen = [UInt32](repeating: 0, count: points.count)
        for o in observations {
            guard Int(o.point) < points.count, Int(o.keyframe) < keyframes.count else {
                throw MapInconsistency("observation of point \(o.point) in keyframe \(o.keyframe) is out of range "
                                       + "(\(points.count) points, \(keyframes.count) keyframes)")
            }
            seen[Int(o.point)] += 1
        }
        if seen != points.observationCounts {
            throw MapInconsistency("points' observation counts disagree with the observations")
        }
    }
}

/// Parts of a map that contradict each other (an observation of a missing point, a word
/// beyond the vocabulary…).
public struct MapInconsistency: Error, Sendable, Hashable, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
