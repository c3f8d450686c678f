import Geodesy
import Support
/// Figures about a map: sizes, track lengths, reprojection error, vocabulary occupancy,
/// per-section counts. `arcloud map inspect` prints them (or their JSON).
public struct MapStatistics: Sendable, Hashable, Codable {
    public struct Section: Sendable, Hashable, Codable {
        public var id: String
        public var name: String
        public var points: Int
        public var keyframes: Int
    }

    public var name: String
    /// `metres` or `unknown`.
    public var units: MapUnits
    /// `+y`, `x,y,z` or `unknown`.
    public var up: MapUpDirection
    /// Where the map lies on the earth, how that was found and the fit's residuals; nil
    /// when it is not georeferenced.
    public var georeference: Georeference?
    public var keyframes: Int
    public var points: Int
    /// Descriptors the points can be matched by (one per distinct viewing direction).
    public var viewDescriptors: Int
    /// Descriptors from simulated views, matched only when those fail (0 for most maps).
    public var simulatedViewDescriptors: Int = 0
    public var observations: Int
    public var meanTrackLength: Double
    /// Track length → number of points with that many observations.
    public var trackLengthHistogram: [Int: Int]
    /// Over all observations, pixels.
    public var meanReprojectionError: Double
    public var medianReprojectionError: Double
    public var p95ReprojectionError: Double
    public var maxReprojectionError: Double
    public var words: Int
    public var vocabularyDepth: Int
    /// Points per non-empty word.
    public var meanPointsPerWord: Double
    public var maxPointsPerWord: Int
    public var sections: [Section]
    public var objects: Int
    public var navigationNodes: Int
    public var navigationEdges: Int

    public init(_ map: VPSMap) {
        name = map.metadata.name
        units = map.metadata.units
        up = map.metadata.up
        georeference = map.metadata.georeference
        keyframes = map.keyframes.count
        points = map.points.count
        viewDescriptors = map.viewDescriptors.count
        simulatedViewDescriptors = map.simulatedViewDescriptors.count
        observations = map.observations.count
        meanTrackLength = points == 0 ? 0 : Double(observations) / Double(points)
        var histogram: [Int: Int] = [:]
        for c in map.points.observationCounts { histogram[Int(c), default: 0] += 1 }
        trackLengthHistogram = histogram
        let errors = MapGeometry.reprojectionErrors(of: map).sorted()
        meanReprojectionError = errors.isEmpty ? 0 : errors.reduce(0, +) / Double(errors.count)
        medianReprojectionError = Statistics.percentile(sorted: errors, 50) ?? 0
        p95ReprojectionError = Statistics.percentile(sorted: errors, 95) ?? 0
        maxReprojectionError = errors.last ?? 0
        words = map.vocabulary?.wordCount ?? 0
        vocabularyDepth = map.vocabulary?.depth ?? 0
        let index = map.wordIndex
        let sizes = (0..<index.wordCount).map { Int(index.offsets[$0 + 1] - index.offsets[$0]) }.filter { $0 > 0 }
        meanPointsPerWord = sizes.isEmpty ? 0 : Double(sizes.reduce(0, +)) / Double(sizes.count)
        maxPointsPerWord = sizes.max() ?? 0
        sections = map.scene.sections.enumerated().map { i, s in
            Section(id: s.id, name: s.name, points: map.points.sections.lazy.filter { $0 == Int32(i) }.count,
                    keyframes: map.keyframes.lazy.filter { $0.section == i }.count)
        }
        objects = map.scene.objects.count
        navigationNodes = map.scene.navigation.nodes.count
        navigationEdges = map.scene.navigation.edges.count
    }
}

extension MapStatistics {
    /// Decodes `map inspect --json` output, also as builds before simulated views wrote it:
    /// a missing `simulatedViewDescriptors` reads as 0 (synthesized decoding would refuse it).
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        name = try c.decode(String.self, forKey: .name)
        units = try c.decode(MapUnits.self, forKey: .units)
        up = try c.decode(MapUpDirection.self, forKey: .up)
        georeference = try c.decodeIfPresent(Georeference.self, forKey: .georeference)
        keyframes = try c.decode(Int.self, forKey: .keyframes)
        points = try c.decode(Int.self, forKey: .points)
        viewDescriptors = try c.decode(Int.self, forKey: .viewDescriptors)
        simulatedViewDescriptors = try c.decodeIfPresent(Int.self, forKey: .simulatedViewDescriptors) ?? 0
        observations = try c.decode(Int.self, forKey: .observations)
        meanTrackLength = try c.decode(Double.self, forKey: .meanTrackLength)
        trackLengthHistogram = try c.decode([Int: Int].self, forKey: .trackLengthHistogram)
        meanReprojectionError = try c.decode(Double.self, forKey: .meanReprojectionError)
        medianReprojectionError = try c.decode(Double.self, forKey: .medianReprojectionError)
        p95ReprojectionError = try c.decode(Double.self, forKey: .p95ReprojectionError)
        maxReprojectionError = try c.decode(Double.self, forKey: .maxReprojectionError)
        words = try c.decode(Int.self, forKey: .words)
        vocabularyDepth = try c.decode(Int.self, forKey: .vocabularyDepth)
        meanPointsPerWord = try c.decode(Double.self, forKey: .meanPointsPerWord)
        maxPointsPerWord = try c.decode(Int.self, forKey: .maxPointsPerWord)
        sections = try c.decode([Section].self, forKey: .sections)
        objects = try c.decode(Int.self, forKey: .objects)
        navigationNodes = try c.decode(Int.self, forKey: .navigationNodes)
        navigationEdges = try c.decode(Int.self, forKey: .navigationEdges)
    }
}
