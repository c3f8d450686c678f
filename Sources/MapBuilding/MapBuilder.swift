import Foundation
import Geometry
import Vision
import MapModel
import VPSModel
import Support

/// Builds a map from images with known poses.
///
/// Stages: ORB on every keyframe (all cores) → keyframe pairs chosen from the images
/// (shared vocabulary words, viewing angle; `ImagePairPlanner`) → the scene's depths,
/// measured on each keyframe's best pair (`SceneDepthProbe`) → matching of each pair
/// along epipolar lines within those depths (Hamming ratio test, mutual, rotation
/// consistency) → union-find tracks over all pairs → multi-view triangulation with
/// cheirality, parallax and reprojection checks in pixels (dropping the worst observation
/// while it is an outlier) → track extension into the paired keyframes and
/// re-triangulation over all observations (`TrackExtension`) → a representative
/// descriptor per point (the medoid) and one per distinct viewing direction
/// (`ViewDescriptorSelection`) → a vocabulary trained on the view descriptors →
/// sections from the scene description's bounds or by spatial clustering.
///
/// No threshold is a length: the builder works the same on a map in metres and on a
/// COLMAP model of arbitrary scale.
public struct MapBuilder: Sendable {
    public var options: MapBuildOptions

    public init(options: MapBuildOptions = MapBuildOptions()) { self.options = options }

    /// Features of one keyframe: stored pixels, undistorted pixels, octaves, descriptors.
    struct KeyframeFeatures: Sendable {
        var pixels: [SIMD2<Float>]
        var undistorted: [SIMD2<Double>]
        var octaves: [UInt8]
        /// Keypoint orientation, degrees.
        var angles: [Float]
        var descriptors: [UInt8]
        var count: Int { octaves.count }
    }

    /// Builds the map from posed frames and their decoded images (`images`: by default read
    /// from each frame's `imageURL`); `controlPoints`, when given, georeference the map
    /// instead of the frames' GPS; `log` receives one line per finished stage. Each stage
    /// is a function of its own (`MapBuilder+Stages.swift`); this one only chains them.
    public func build(frames allFrames: [MapBuildFrame], images: some KeyframeImages = KeyframeImageFiles(),
                      metadata: MapMetadata, scene: SceneContent? = nil, controlPoints: [ControlPoint]? = nil,
                      log: (String) -> Void = { _ in }) throws -> (map: VPSMap, report: MapBuildReport) {
        if let problem = scene?.problem { throw MapBuildError("scene: \(problem)") }
        let frames = stride(from: 0, to: allFrames.count, by: max(1, options.keyframeStride)).map { allFrames[$0] }
        guard frames.count >= 2 else {
            throw MapBuildError("need at least 2 posed frames to build a map, got \(frames.count)")
        }
        for f in frames { if let p = f.intrinsics.problem { throw MapBuildError("frame \(f.name): \(p)") } }
        var run = StageRun()
        run.report.keyframes = frames.count
        let threads = WorkerThreads.threadCount(options.threads)

        let features = try extractFeatures(frames, images: images, threads: threads, &run, log)
        let planned = try planPairs(frames, features, threads: threads, &run, log)
        let probe = try measureDepths(planned, features, frames, threads: threads, &run, log)
        let pairMatches = try matchPairs(planned.pairs, features, frames, depths: probe, threads: threads, &run, log)
        let tracks = buildTracks(planned.pairs, pairMatches, features, &run, log)
        let triangulated = try triangulateTracks(tracks, features, frames, threads: threads, &run, log)
        var kept = triangulated
        if options.extendTracks {
            kept = try extend(triangulated, pairs: planned.pairs, features: features, frames: frames, threads: threads,
                              report: &run.report)
            log(run.finish("extend", "\(run.report.extendedObservations) observations added to \(run.report.extendedPoints) "
                       + "points, \(kept.reduce(0) { $0 + $1.track.count }) observations"))
        }
        var points = try selectDescriptors(kept, features, frames, threads: threads, &run, log)
        let simulatedViews = options.describesSimulatedViews(keyframes: frames.count)
        if simulatedViews {
            try addAffineViewDescriptors(&points, frames, images: images, threads: threads, &run, log)
        }
        let vocabulary = try trainVocabulary(points, &run, log)
        let (content, sections, keyframes) = assignSections(points, frames, metadata: metadata, scene: scene, &run, log)

        var meta = metadata
        meta.builder = options.summary.merging(meta.builder) { _, given in given }
        meta.builder["affineViews"] = "\(simulatedViews)"
        meta.featureType = options.featureType
        if meta.camera == nil { meta.camera = frames[0].intrinsics }
        if meta.georeference == nil {
            meta.georeference = georeference(allFrames, controlPoints: controlPoints, up: meta.up, units: meta.units, &run, log)
        }
        let mapPoints = MapPoints(positions: points.positions, descriptors: points.descriptors,
                                  observationCounts: points.counts, words: vocabulary.words,
                                  sections: sections)
        let map = try VPSMap(metadata: meta, scene: content, keyframes: keyframes, points: mapPoints,
                             observations: points.observations, vocabulary: vocabulary.vocabulary,
                             viewDescriptors: vocabulary.views, simulatedViewDescriptors: vocabulary.simulated)
        return (map, run.report)
    }

    // MARK: Stages

    /// Stage 7: each point searched in the keyframes paired with its views; the claimed
    /// features (best descriptor distance first, each feature to one point) join the
    /// tracks, which are re-triangulated. A point whose extended track fails keeps its
    /// original one.
    func extend(_ points: [(position: SIMD3<Double>, track: [TrackBuilder.Observation])], pairs: [ImagePairPlanner.Pair],
                features: [KeyframeFeatures], frames: [MapBuildFrame], threads: Int,
                report: inout MapBuildReport) throws -> [(position: SIMD3<Double>, track: [TrackBuilder.Observation])] {
        let partners = pairs.reduce(into: [Set<Int>](repeating: [], count: frames.count)) { sets, p in
            sets[p.a].insert(p.b); sets[p.b].insert(p.a)
        }
        var used = features.map { [Bool](repeating: false, count: $0.count) }
        for p in points { for o in p.track { used[o.keyframe][o.feature] = true } }
        let grids = frames.indices.map {
            FeatureGrid(points: features[$0].undistorted, width: frames[$0].intrinsics.width, height: frames[$0].intrinsics.height)
        }
        let extender = TrackExtension(options: options)
        let proposed = try WorkerThreads.map(count: points.count, threads: threads, makeState: { () }) { _, i in
            let inTrack = Set(points[i].track.map(\.keyframe))
            let candidates = inTrack.reduce(into: Set<Int>()) { $0.formUnion(partners[$1]) }.subtracting(inTrack).sorted()
            return extender.proposals(point: i, position: points[i].position, track: points[i].track,
                                       candidates: candidates, features: features, frames: frames, grids: grids)
        }.flatMap { $0 }
        var claimed = [[TrackBuilder.Observation]](repeating: [], count: points.count)
        for p in proposed.sorted(by: { ($0.distance, $0.point, $0.keyframe) < ($1.distance, $1.point, $1.keyframe) })
        where !used[p.keyframe][p.feature] {
            used[p.keyframe][p.feature] = true
            claimed[p.point].append(TrackBuilder.Observation(keyframe: p.keyframe, feature: p.feature))
        }
        let added = claimed
        let opts = options
        let refined = try WorkerThreads.map(count: points.count, threads: threads, makeState: { () }) { _, i in
            guard !added[i].isEmpty else { return (points[i], 0) }
            let track = (points[i].track + added[i]).sorted { $0.keyframe < $1.keyframe }
            if case let .point(x, kept, _) = Self.triangulate(track, features: features, frames: frames, options: opts) {
                return ((x, kept), max(0, kept.count - points[i].track.count))
            }
            return (points[i], 0)
        }
        report.extendedObservations = refined.reduce(0) { $0 + $1.1 }
        report.extendedPoints = refined.filter { $0.1 > 0 }.count
        return refined.map(\.0)
    }

    static func extract(_ frame: MapBuildFrame, from images: some KeyframeImages,
                        with extractor: FeatureExtractor) throws -> KeyframeFeatures {
        let image = try images.image(of: frame)
        guard image.width == frame.intrinsics.width, image.height == frame.intrinsics.height else {
            throw MapBuildError("\(frame.imageURL.path): image is \(image.width)x\(image.height) but the camera "
                                + "says \(frame.intrinsics.width)x\(frame.intrinsics.height)")
        }
        do {
            let f = try extractor.extract(image)
            let pixels = f.keypoints.map { SIMD2(Double($0.x), Double($0.y)) }
            let undistorted = frame.intrinsics.distortion.isEmpty ? pixels : try frame.intrinsics.undistort(pixels)
            return KeyframeFeatures(pixels: f.keypoints.map { SIMD2($0.x, $0.y) }, undistorted: undistorted,
                                    octaves: f.keypoints.map { UInt8(clamping: $0.octave) },
                                    angles: f.keypoints.map(\.angle), descriptors: f.descriptors)
        } catch {
            throw MapBuildError("\(frame.imageURL.path): \(error)")
        }
    }

    /// Matches of keyframe a's features to b's. Candidates for a query must lie within the
    /// epipolar threshold (scaled by their pyramid level) of its epipolar line, on the
    /// stretch of it where the two rays meet at a depth within `depthRange` in both cameras,
    /// at the pyramid level those two depths predict (ORB; SIFT: a similar level); then the
    /// Hamming ratio test and a mutual check pick at most one partner. Limiting the depth
    /// and the level cuts the candidates (and wrong matches on repetitive texture)
    /// several-fold.
    static func match(_ fa: KeyframeFeatures, _ fb: KeyframeFeatures, _ a: MapBuildFrame, _ b: MapBuildFrame,
                      depthRange: ClosedRange<Double>, _ options: MapBuildOptions) throws -> [PairMatch] {
        guard fa.count > 0, fb.count > 0 else { return [] }
        let F = fundamental(from: a, to: b)
        let scale = Double(options.orb.scaleFactor)
        let levelScale = (0..<32).map { pow(scale, Double($0)) }
        let logScale = log(scale), levelsPredicted = options.featureType == .orb
        let bx = fb.undistorted.map(\.x), by = fb.undistorted.map(\.y)
        // Viewing rays in the map frame, z-depth 1 in their own camera.
        let ra = mapRays(fa.undistorted, a), rb = mapRays(fb.undistorted, b)
        let c = b.pose.center - a.pose.center
        let near = depthRange.lowerBound, far = depthRange.upperBound
        let grid = FeatureGrid(points: fb.undistorted, width: b.intrinsics.width, height: b.intrinsics.height)
        let bFromMap = b.pose.inverse
        let maxBand = options.epipolarThreshold * levelScale[min(Int(fb.octaves.max() ?? 0), 31)]
        var lists = CandidateLists()
        var candidates: [Int] = []
        for i in 0..<fa.count {
            let x = fa.undistorted[i]
            let l = F * SIMD3(x.x, x.y, 1)
            let norm = (l.x * l.x + l.y * l.y).squareRoot()
            candidates.removeAll(keepingCapacity: true)
            // The stretch of a's ray at depths near…far in both cameras, seen from b: only
            // b's grid cells around it are searched.
            let rai = ra[i]
            if norm > 1e-12, let segment = depthSegment(ray: rai, from: a.pose.center, in: bFromMap, near: near, far: far),
               let p0 = b.intrinsics.project(segment.0), let p1 = b.intrinsics.project(segment.1) {
                let oa = Int(fa.octaves[i])
                let aa = dot(rai, rai), ac = dot(rai, c)
                grid.forEach(inBoxFrom: simdMin(p0, p1) - maxBand, to: simdMax(p0, p1) + maxBand) { j in
                    let ob = Int(fb.octaves[j])
                    // SIFT's level is its size rounded onto the same scale and clamped at
                    // both ends, not where it was found: neighbouring levels pass.
                    if !levelsPredicted && abs(oa - ob) > 1 { return }
                    let d = abs(l.x * bx[j] + l.y * by[j] + l.z) / norm
                    if d > options.epipolarThreshold * levelScale[min(ob, 31)] { return }
                    // Closest points of the two rays: depths along each.
                    let rbj = rb[j], ab = dot(rai, rbj), bb = dot(rbj, rbj), bc = dot(rbj, c)
                    let det = aa * bb - ab * ab
                    if det < 1e-12 { return }
                    let da = (bb * ac - ab * bc) / det, db = (ab * ac - aa * bc) / det
                    guard da >= near && da <= far && db >= near && db <= far else { return }
                    if levelsPredicted {
                        // ORB finds a patch at the pyramid level where it fills its window,
                        // so two views of it at depths da and db lie log((fa/da)/(fb/db))
                        // levels apart. Only a partner at that level (the nearest, both at a
                        // tie) is a candidate: the others crowd the ratio test, and wrong
                        // ones among them pass it.
                        let predicted = log((a.intrinsics.fx * db) / (b.intrinsics.fx * da)) / logScale
                        if abs(Double(oa - ob) - predicted) > 0.5 { return }
                    }
                    candidates.append(j)
                }
                candidates.sort()
            }
            lists.append(candidates)
        }
        let matcher = DescriptorMatcher(ratio: options.ratio, maxDistance: options.maxHammingDistance, mutual: true)
        let matches = try matcher.match(query: fa.descriptors, train: fb.descriptors, candidates: lists).map {
            PairMatch(a: $0.query, b: $0.train, distance: $0.distance)
        }
        return consistentRotation(matches, fa, fb)
    }

    /// Keeps the matches whose change of keypoint orientation falls in the three most
    /// common of 30 bins (ORB-SLAM's rotation-consistency check): between two views of a
    /// scene the in-plane rotation of true matches is nearly the same, wrong ones scatter.
    static func consistentRotation(_ matches: [PairMatch], _ fa: KeyframeFeatures, _ fb: KeyframeFeatures) -> [PairMatch] {
        guard matches.count >= 10 else { return matches }
        let bins = 30
        func bin(_ m: PairMatch) -> Int {
            var d = fa.angles[m.a] - fb.angles[m.b]
            if d < 0 { d += 360 }
            return min(bins - 1, Int(d / 360 * Float(bins)))
        }
        var histogram = [Int](repeating: 0, count: bins)
        for m in matches { histogram[bin(m)] += 1 }
        let top = histogram.indices.sorted { (histogram[$0], -$0) > (histogram[$1], -$1) }.prefix(3)
        // A bin far smaller than the best is not a mode (ORB-SLAM: below 10% of the best).
        let keep = Set(top.filter { histogram[$0] * 10 >= histogram[top.first!] })
        return matches.filter { keep.contains(bin($0)) }
    }

    /// The part of the ray `origin + s·ray` (s = depth in the ray's own camera) with
    /// s in near…far whose depth in camera b is also in near…far, as two points in b's frame.
    static func depthSegment(ray: SIMD3<Double>, from origin: SIMD3<Double>, in bFromMap: Pose,
                             near: Double, far: Double) -> (SIMD3<Double>, SIMD3<Double>)? {
        let q0 = bFromMap.apply(origin), dir = bFromMap.rotation.rotate(ray)
        var lo = near, hi = far
        // Depth in b is linear in s: q0.z + s·dir.z; keep it within near…far.
        if abs(dir.z) < 1e-12 {
            if q0.z < near || q0.z > far { return nil }
        } else {
            let s1 = (near - q0.z) / dir.z, s2 = (far - q0.z) / dir.z
            lo = max(lo, min(s1, s2)); hi = min(hi, max(s1, s2))
        }
        guard lo <= hi else { return nil }
        return (q0 + dir * lo, q0 + dir * hi)
    }

    static func mapRays(_ pixels: [SIMD2<Double>], _ frame: MapBuildFrame) -> [SIMD3<Double>] {
        let r = frame.pose.rotation.matrix
        return pixels.map { r * frame.intrinsics.ray($0) }
    }

    struct PairMatch: Sendable {
        var a: Int
        var b: Int
        var distance: Int
    }

    /// F with x_bᵀ F x_a = 0 for undistorted pixels of a and b.
    static func fundamental(from a: MapBuildFrame, to b: MapBuildFrame) -> Matrix3 {
        let rel = b.pose.inverse * a.pose          // X_b = R X_a + t
        let R = rel.rotation.matrix, t = rel.translation
        let tx = Matrix3(rows: SIMD3(0, -t.z, t.y), SIMD3(t.z, 0, -t.x), SIMD3(-t.y, t.x, 0))
        let E = tx * R
        func kInverse(_ k: CameraIntrinsics) -> Matrix3 {
            Matrix3(rows: SIMD3(1 / k.fx, 0, -k.cx / k.fx), SIMD3(0, 1 / k.fy, -k.cy / k.fy), SIMD3(0, 0, 1))
        }
        return kInverse(b.intrinsics).transposed * E * kInverse(a.intrinsics)
    }

    enum TrackResult: Sendable {
        case point(SIMD3<Double>, kept: [TrackBuilder.Observation], outliers: Int)
        case rejected(String)
    }

    /// Triangulates a track from all its views. Each observation must reproject within
    /// `maxReprojectionError × scaleFactor^octave`; while one does not and more than
    /// `minTrackLength` remain, the worst (relative to its own threshold) is dropped and the
    /// point re-triangulated.
    static func triangulate(_ track: [TrackBuilder.Observation], features: [KeyframeFeatures],
                            frames: [MapBuildFrame], options: MapBuildOptions) -> TrackResult {
        // Reprojection is checked here per observation, so the triangulator's own check is off.
        let triangulator = Triangulator(minParallaxDegrees: options.minParallaxDegrees, maxError: .infinity, refine: true)
        let minimum = max(2, options.minTrackLength)
        var obs = track
        var outliers = 0
        while obs.count >= minimum {
            let views = obs.map { o in
                var k = frames[o.keyframe].intrinsics
                k.distortion = []
                return CameraView(pose: frames[o.keyframe].pose, intrinsics: k)
            }
            let pixels = obs.map { features[$0.keyframe].undistorted[$0.feature] }
            guard let t = try? triangulator.triangulate(views: views, pixels: pixels) else { return .rejected("degenerate") }
            switch t.status {
            case .ok, .highError:
                guard t.errors.count == obs.count else { return .rejected("degenerate") }
                let excess = obs.indices.map { i in
                    t.errors[i] / allowedError(octave: features[obs[i].keyframe].octaves[obs[i].feature], options)
                }
                let worst = excess.indices.max { excess[$0] < excess[$1] }!
                if excess[worst] <= 1 {
                    let octaves = obs.map { features[$0.keyframe].octaves[$0.feature] }.sorted()
                    let sigma = pow(Double(options.orb.scaleFactor), Double(Statistics.higherPercentile(sorted: octaves, 50)!))
                    let focal = obs.map { frames[$0.keyframe].intrinsics.fx }.reduce(0, +) / Double(obs.count)
                    let uncertainty = sigma / focal / sin(t.parallaxDegrees * .pi / 180)
                    // Two views cannot outvote a wrong match: ask them for a better-conditioned depth.
                    let bound = options.depthUncertaintyBound(keyframes: frames.count)
                    let allowed = obs.count == 2 ? bound * options.twoViewUncertaintyFactor : bound
                    if uncertainty > allowed { return .rejected("depth uncertainty") }
                    return .point(t.position, kept: obs, outliers: outliers)
                }
                if obs.count == minimum { return .rejected("reprojection") }
                obs.remove(at: worst)
                outliers += 1
            case .lowParallax: return .rejected("parallax")
            case .behindCamera: return .rejected("cheirality")
            case .degenerate: return .rejected("degenerate")
            }
        }
        return .rejected("short track")
    }

    /// The reprojection error allowed for a keypoint found at pyramid level `octave`.
    public static func allowedError(octave: UInt8, _ options: MapBuildOptions) -> Double {
        options.maxReprojectionError * pow(Double(options.orb.scaleFactor), Double(octave))
    }

    /// The descriptor with the smallest total Hamming distance to the others.
    static func medoid(_ descriptors: [ArraySlice<UInt8>]) -> [UInt8] {
        if descriptors.count <= 2 { return Array(descriptors[0]) }
        var best = 0, bestSum = Int.max
        for i in descriptors.indices {
            var sum = 0
            for j in descriptors.indices where j != i { sum += hamming(descriptors[i], descriptors[j]) }
            if sum < bestSum { bestSum = sum; best = i }
        }
        return Array(descriptors[best])
    }

    static func hamming(_ a: ArraySlice<UInt8>, _ b: ArraySlice<UInt8>) -> Int {
        var d = 0
        for (x, y) in zip(a, b) { d += (x ^ y).nonzeroBitCount }
        return d
    }
}

private func simdMin(_ a: SIMD2<Double>, _ b: SIMD2<Double>) -> SIMD2<Double> { SIMD2(min(a.x, b.x), min(a.y, b.y)) }
private func simdMax(_ a: SIMD2<Double>, _ b: SIMD2<Double>) -> SIMD2<Double> { SIMD2(max(a.x, b.x), max(a.y, b.y)) }

