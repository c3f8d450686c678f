import Foundation
import Geometry
import Vision
import MapModel
import VPSModel
import Support

/// The stages of `MapBuilder.build`, in pipeline order, one function each: every stage takes
/// what the stages before it produced, records its counts in the report and logs one line.
extension MapBuilder {
    /// A triangulated point and the observations it keeps.
    typealias TrackedPoint = (position: SIMD3<Double>, track: [TrackBuilder.Observation])

    /// The report under construction and each stage's wall-clock time.
    struct StageRun {
        var report = MapBuildReport()
        private let clock = ContinuousClock()
        private var stageStart: ContinuousClock.Instant

        init() { stageStart = clock.now }

        /// Ends the current stage: records its duration; returns the line to log,
        /// `name: detail in N s`.
        mutating func finish(_ name: String, _ detail: String) -> String {
            let d = clock.now - stageStart
            report.stages.append((name, d))
            stageStart = clock.now
            return "\(name): \(detail) in \(String(format: "%.2f s", d.seconds))"
        }
    }

    /// The points with one representative descriptor each (the medoid), their view
    /// descriptors and observations, flat as the map stores them.
    struct DescribedPoints {
        var positions: [Double] = []
        var descriptors: [UInt8] = []
        var counts: [UInt32] = []
        var viewDescriptors: [UInt8] = []
        var viewPoints: [UInt32] = []
        /// Descriptors from simulated views (stage 8b), grouped by point; empty without it.
        var simulatedDescriptors: [UInt8] = []
        var simulatedPoints: [UInt32] = []
        var observations: [MapObservation] = []
        var count: Int { counts.count }
        func position(_ i: Int) -> SIMD3<Double> { SIMD3(positions[3 * i], positions[3 * i + 1], positions[3 * i + 2]) }
    }

    /// 1. Features (`options.featureType`) on every keyframe (all cores, one extractor per thread).
    func extractFeatures(_ frames: [MapBuildFrame], images: some KeyframeImages, threads: Int,
                         _ run: inout StageRun, _ log: (String) -> Void) throws -> [KeyframeFeatures] {
        let orb = { var o = options.orb; o.featureCount = options.featuresPerKeyframe(keyframes: frames.count); return o }()
        let features = try WorkerThreads.map(count: frames.count, threads: threads,
                                             makeState: { try FeatureExtractor(options.featureType, options: orb) }) { extractor, i in
            try Self.extract(frames[i], from: images, with: extractor)
        }
        run.report.features = features.reduce(0) { $0 + $1.count }
        log(run.finish("extract", "\(run.report.features) \(options.featureType.name) features in \(frames.count) keyframes "
                   + "(at most \(orb.featureCount) each)"))
        return features
    }

    /// 2. Keyframe pairs from the images: shared vocabulary words, viewing angle.
    func planPairs(_ frames: [MapBuildFrame], _ features: [KeyframeFeatures], threads: Int,
                   _ run: inout StageRun, _ log: (String) -> Void) throws -> (pairs: [ImagePairPlanner.Pair], ranked: [[ImagePairPlanner.Pair]]) {
        let planner = ImagePairPlanner(maxViewAngleDegrees: options.maxViewAngleDegrees,
                                       partnersPerKeyframe: options.partnersPerKeyframe)
        let planned = try planner.pairs(descriptors: features.map(\.descriptors), poses: frames.map(\.pose), threads: threads)
        run.report.pairs = planned.pairs.count
        log(run.finish("pairs", "\(planned.pairs.count) keyframe pairs by shared words "
                   + "(of \(frames.count * (frames.count - 1) / 2))"))
        return planned
    }

    /// 3. The scene's depths, from each keyframe's best pairs matched along whole epipolar
    /// lines; nil when too few points were found.
    func measureDepths(_ planned: (pairs: [ImagePairPlanner.Pair], ranked: [[ImagePairPlanner.Pair]]),
                       _ features: [KeyframeFeatures], _ frames: [MapBuildFrame], threads: Int,
                       _ run: inout StageRun, _ log: (String) -> Void) throws -> SceneDepthProbe.Measurement? {
        var probePairs = Set<[Int]>()
        for ranked in planned.ranked { for p in ranked.prefix(options.depthProbePartners) { probePairs.insert([p.a, p.b]) } }
        let probe = try SceneDepthProbe().measure(
            pairs: probePairs.sorted { $0.lexicographicallyPrecedes($1) }.map { ($0[0], $0[1]) },
            features: features, frames: frames, options: options, threads: threads)
        run.report.sceneDepth = probe.map { ($0.range, $0.median) }
        log(run.finish("depths", probe.map { String(format: "scene depths %.3g-%.3g (median %.3g) from %d points on %d pairs",
                                                $0.range.lowerBound, $0.range.upperBound, $0.median, $0.points,
                                                probePairs.count) }
                   ?? "too few points on \(probePairs.count) probe pairs: matching along whole epipolar lines"))
        return probe
    }

    /// 4. Each pair matched along epipolar lines, within the measured depths.
    func matchPairs(_ pairs: [ImagePairPlanner.Pair], _ features: [KeyframeFeatures], _ frames: [MapBuildFrame],
                    depths probe: SceneDepthProbe.Measurement?, threads: Int,
                    _ run: inout StageRun, _ log: (String) -> Void) throws -> [[PairMatch]] {
        let opts = options
        let pairMatches = try WorkerThreads.map(count: pairs.count, threads: threads, makeState: { () }) { _, p in
            let a = pairs[p].a, b = pairs[p].b
            let range = probe?.range
                ?? SceneDepthProbe.unbounded(baseline: length(frames[a].pose.center - frames[b].pose.center))
            return try Self.match(features[a], features[b], frames[a], frames[b], depthRange: range, opts)
        }
        run.report.matches = pairMatches.reduce(0) { $0 + $1.count }
        log(run.finish("match", "\(run.report.matches) matches"))
        return pairMatches
    }

    /// 5. Tracks by union-find over every pair's matches, best matches first, so that a
    /// wrong match loses against the right ones it conflicts with.
    func buildTracks(_ pairs: [ImagePairPlanner.Pair], _ pairMatches: [[PairMatch]], _ features: [KeyframeFeatures],
                     _ run: inout StageRun, _ log: (String) -> Void) -> [[TrackBuilder.Observation]] {
        var all: [(distance: Int, pair: Int, index: Int)] = []
        for (p, matches) in pairMatches.enumerated() {
            for (i, m) in matches.enumerated() { all.append((m.distance, p, i)) }
        }
        all.sort { ($0.distance, $0.pair, $0.index) < ($1.distance, $1.pair, $1.index) }
        var builder = TrackBuilder(featureCounts: features.map(\.count))
        for m in all {
            let p = pairs[m.pair], match = pairMatches[m.pair][m.index]
            builder.union(p.a, match.a, p.b, match.b)
        }
        let tracks = builder.tracks()
        run.report.tracks = tracks.count
        run.report.trackConflicts = builder.conflicts
        log(run.finish("tracks", "\(tracks.count) tracks (\(builder.conflicts) matches refused as inconsistent)"))
        return tracks
    }

    /// 6. Multi-view triangulation of every track; rejections are counted by reason.
    func triangulateTracks(_ tracks: [[TrackBuilder.Observation]], _ features: [KeyframeFeatures],
                           _ frames: [MapBuildFrame], threads: Int, _ run: inout StageRun, _ log: (String) -> Void) throws -> [TrackedPoint] {
        let opts = options
        let triangulated = try WorkerThreads.map(count: tracks.count, threads: threads, makeState: { () }) { _, t in
            Self.triangulate(tracks[t], features: features, frames: frames, options: opts)
        }
        var points: [TrackedPoint] = []
        for result in triangulated {
            switch result {
            case .rejected(let reason): run.report.rejected[reason, default: 0] += 1
            case let .point(x, observations, outliers):
                points.append((x, observations))
                run.report.outlierObservations += outliers
            }
        }
        guard !points.isEmpty else {
            throw MapBuildError("no point survived triangulation (\(run.report.matches) matches, \(tracks.count) tracks); "
                                + "check the poses and the intrinsics")
        }
        let rejected = run.report.rejected.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }
        log(run.finish("triangulate", "\(points.count) points, \(points.reduce(0) { $0 + $1.track.count }) observations "
                   + "(rejected: \(rejected.joined(separator: ", ")))"))
        return points
    }

    /// 8. A representative descriptor (the medoid) per point and one per distinct viewing
    /// direction (`ViewDescriptorSelection`), with the observations, flat as the map stores them.
    func selectDescriptors(_ kept: [TrackedPoint], _ features: [KeyframeFeatures], _ frames: [MapBuildFrame],
                           threads: Int, _ run: inout StageRun, _ log: (String) -> Void) throws -> DescribedPoints {
        let selection = ViewDescriptorSelection(clusterDegrees: options.viewClusterDegrees,
                                                maxPerPoint: options.maxViewDescriptorsPerPoint)
        let perPoint = try WorkerThreads.map(count: kept.count, threads: threads,
                                             makeState: { () }) { _, i -> ([UInt8], [[UInt8]]) in
            let descriptors = kept[i].track.map { o in features[o.keyframe].descriptors[32 * o.feature..<32 * o.feature + 32] }
            return (Self.medoid(descriptors),
                    selection.descriptors(position: kept[i].position,
                                          cameraCentres: kept[i].track.map { frames[$0.keyframe].pose.center },
                                          descriptors: descriptors))
        }
        var out = DescribedPoints()
        for (i, point) in kept.enumerated() {
            out.positions += [point.position.x, point.position.y, point.position.z]
            out.counts.append(UInt32(point.track.count))
            out.descriptors += perPoint[i].0
            for d in perPoint[i].1 { out.viewDescriptors += d; out.viewPoints.append(UInt32(i)) }
            for o in point.track {
                let f = features[o.keyframe]
                out.observations.append(MapObservation(point: UInt32(i), keyframe: UInt32(o.keyframe),
                                                       pixel: f.pixels[o.feature], octave: f.octaves[o.feature]))
            }
        }
        run.report.points = out.count
        run.report.observations = out.observations.count
        run.report.viewDescriptors = out.viewPoints.count
        log(run.finish("descriptors", "\(out.viewPoints.count) view descriptors for \(out.count) points"))
        return out
    }

    /// 9. The vocabulary, trained on the photos' view descriptors; the words of the points,
    /// of those and of the simulated views' descriptors.
    func trainVocabulary(_ points: DescribedPoints, _ run: inout StageRun, _ log: (String) -> Void) throws
        -> (vocabulary: Vocabulary, words: [UInt32], views: MapViewDescriptors, simulated: MapViewDescriptors) {
        let vocabulary = try Vocabulary.train(
            descriptors: points.viewDescriptors,
            parameters: .adaptive(descriptorCount: points.viewPoints.count, pointsPerWord: options.pointsPerWord))
        let words = vocabulary.words(for: points.descriptors)
        let views = MapViewDescriptors(descriptors: points.viewDescriptors, points: points.viewPoints,
                                       words: vocabulary.words(for: points.viewDescriptors))
        // Trained on the photos' own descriptors alone: the simulated ones only get words, so
        // the first search a query meets is the same with or without them.
        let simulated = MapViewDescriptors(descriptors: points.simulatedDescriptors, points: points.simulatedPoints,
                                           words: vocabulary.words(for: points.simulatedDescriptors))
        run.report.words = vocabulary.wordCount
        log(run.finish("vocabulary", "\(vocabulary.wordCount) words, depth \(vocabulary.depth)"))
        return (vocabulary, words, views, simulated)
    }

    /// 10. Sections: from the scene description's bounds when every section has them, by
    /// spatial clustering when it names none; each point's and keyframe's section.
    func assignSections(_ points: DescribedPoints, _ frames: [MapBuildFrame], metadata: MapMetadata,
                        scene: SceneContent?, _ run: inout StageRun, _ log: (String) -> Void)
        -> (content: SceneContent, pointSections: [Int32], keyframes: [MapKeyframe]) {
        var content = scene ?? SceneContent()
        var pointSections: [Int32]
        let bounded = !content.sections.isEmpty
            && content.sections.allSatisfy { $0.boundsMin != nil && $0.boundsMax != nil }
        if bounded {
            pointSections = (0..<points.count).map { i in
                Int32(SectionAssignment.section(of: points.position(i), in: content.sections) ?? -1)
            }
        } else if content.sections.isEmpty {
            let clustered = SpatialSections.cluster(positions: points.positions, units: metadata.units, up: metadata.up)
            content.sections = clustered.sections
            pointSections = clustered.labels
        } else {
            pointSections = [Int32](repeating: -1, count: points.count)
        }
        let keyframes = frames.map { f in
            MapKeyframe(name: f.name, timestamp: f.timestamp, pose: f.pose, intrinsics: f.intrinsics,
                        section: SectionAssignment.section(of: f.pose.center, in: content.sections))
        }
        log(run.finish("sections", "\(content.sections.count) sections"
                   + (bounded ? " from the scene" : scene == nil ? " by clustering" : "")))
        return (content, pointSections, keyframes)
    }
}
