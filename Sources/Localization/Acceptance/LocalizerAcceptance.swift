import Foundation
import Geometry
import Support
import Vision
import VPSModel

/// When a pose counts (`PoseAcceptance`), and the checks against the device's gravity and a
/// tracking prior. Each rejection gives a reason a person can read, which the frame's result
/// reports, with the measured evidence (`PoseEvidence`).
extension Localizer {
    /// A pose and what it was judged on.
    struct Verdict {
        var attempt: Attempt
        var evidence: PoseEvidence
        /// Why the pose does not count, or nil when it does.
        var rejection: String?
        /// The pose's error bounds (`PoseAccuracy`), once measured.
        var accuracy: PoseAccuracy?
        /// The pose those bounds describe (`PoseUncertainty.pose`), which the answer gives.
        var refined: Pose?
    }

    /// Judges `grown`, the pose grown from the global matches of `seed`, by the four
    /// questions of `PoseAcceptance`, cheapest first; the evidence records what was
    /// measured up to the first failure. Each check's time is added to `clock`.
    func judge(_ grown: Attempt, seed: Attempt, _ query: Query, searches: Int, clock: inout JudgingTimings) -> Verdict {
        let a = options.acceptance
        guard let e = grown.estimate else {
            return Verdict(attempt: grown, evidence: PoseEvidence(log10NFA: .infinity, rotationSigmaDegrees: .infinity,
                                                                  positionSigma: .infinity),
                           rejection: "no pose: \(grown.matches.count) tentative matches")
        }
        var verdict = Verdict(attempt: grown, evidence: PoseEvidence(log10NFA: .infinity, rotationSigmaDegrees: .infinity,
                                                                     positionSigma: .infinity))
        if let why = consistencyProblem(e, query) {
            verdict.rejection = why
            return verdict
        }
        let pose = e.cameraFromWorld
        var watch = Stopwatch()
        // 1. More than chance.
        let evidence = GlobalEvidence(self, matches: seed.matches, query)
        let s = evidence.significance(under: pose, sampleSize: query.gravity == nil ? 3 : 2, searches: searches)
        clock.significance += watch.lap()
        verdict.evidence.log10NFA = s.log10NFA
        verdict.evidence.globalMatches = seed.matches.count
        verdict.evidence.globalInliers = s.inliers
        verdict.evidence.radius = s.radius
        verdict.evidence.background = s.background
        if !(s.log10NFA <= a.maxLog10NFA) {
            verdict.rejection = String(format: "matches no better than chance: %d of %d within %.0f px, NFA 10^%.1f above 10^%.0f",
                                       s.inliers, seed.matches.count, s.radius, s.log10NFA, a.maxLog10NFA)
            return verdict
        }
        // 2. Determined: its 95 % bounds lie within the promised accuracy.
        let u = uncertainty(of: grown, query)
        verdict.evidence.rotationSigmaDegrees = u.rotationDegrees
        verdict.evidence.positionSigma = u.centre / scale.length
        verdict.evidence.residualScale = u.residualScale
        let (accuracy, undetermined) = bounds(u)
        clock.uncertainty += watch.lap()
        if let undetermined {
            verdict.rejection = undetermined
            return verdict
        }
        verdict.accuracy = accuracy
        verdict.refined = u.pose?.pose
        // 4. Explains the image (before 3: it is cheaper).
        let distinctive = grown.inlierMatches.filter { $0.distance <= a.distinctiveDistance }
            .map { query.keypoints[$0.query].position }
        let local = grown.localPoints ?? localPoints(around: e.pose, inliersOf: grown)
        let counts = a.coverage.counts(predicted: predictedVisible(from: pose, query.camera, among: local,
                                                                   maxViewingAngle: options.maxViewingAngle),
                                       inliers: distinctive, width: query.camera.width, height: query.camera.height)
        verdict.evidence.coverage = PoseEvidence.Coverage(explained: counts.explained, expected: counts.expected,
                                                          distinctiveInliers: distinctive.count)
        // A right pose must stay likelier than a look-alike; and the regions it leaves
        // unexplained weigh against its global evidence (explained ones cannot stand in
        // for that evidence: they come from guided matches, found where the pose looked).
        let ratio = a.coverage.log10LikelihoodRatio(counts)
        clock.coverage += watch.lap()
        if !a.coverage.accepts(counts) {
            verdict.rejection = String(format: "explains %d of %d image regions where the map expects structure: a look-alike by %.0f to 1",
                                       counts.explained, counts.expected, pow(10, -ratio) / a.coverage.lookAlikePriorOdds)
            return verdict
        }
        if s.log10NFA - min(0, ratio) > a.maxLog10NFA {
            verdict.rejection = String(format: "explains %d of %d image regions where the map expects structure: with the unexplained ones the evidence is 10^%.1f, above 10^%.0f",
                                       counts.explained, counts.expected, s.log10NFA - min(0, ratio), a.maxLog10NFA)
            return verdict
        }
        // 3. The only explanation, searched beyond the promised accuracy: a rival there that
        // explains the global matches as well means the pose may be that far off
        // (`PoseAcceptance`). A rival matters only with about as many inliers as
        // the pose; the search draws just enough samples to find one that strong (a strong
        // pose's rival would need a high inlier ratio: a few dozen samples).
        let sample = query.gravity == nil ? 3 : 2
        // How far the guided passes land from the answer when started from a rival that fits
        // the global matches as well: the answer may be either, so its bound must reach both.
        var rivalGrowth: (translation: Double, rotationDegrees: Double)?
        if let needed = EvidenceSignificance().inliersNeeded(for: min(a.maxLog10NFA, s.log10NFA + a.rivalMargin), s),
           let rival = evidence.rival(of: pose, outside: a.tolerance, radius: s.radius, sampleSize: sample,
                                      searches: searches,
                                      iterations: Self.samplesToFind(inliers: needed + sample, of: seed.matches.count,
                                                                     sampleSize: sample, confidence: 0.99)) {
            verdict.evidence.rivalNFA = rival.significance.log10NFA
            verdict.evidence.rivalInliers = rival.significance.inliers
            let d = rival.pose.pose.error(to: e.pose)
            // −2 log-likelihood of the global matches, the rival's over the pose's, in the
            // units of the keypoint noise the residuals show.
            let worseFit = (evidence.robustCost(under: rival.pose) - evidence.robustCost(under: pose))
                / (u.residualScale * u.residualScale)
            let farAndAsSignificant = !isWithin(d, a.rivalRegion)
                && a.isRivalAsSignificant(rivalLog10NFA: rival.significance.log10NFA, poseLog10NFA: s.log10NFA)
            let fitsAsWell = a.rivalFitsAsWell(rivalLog10NFA: rival.significance.log10NFA, worseFit: worseFit,
                                               freeParameters: query.gravity == nil ? 6 : 4)
            if fitsAsWell && !farAndAsSignificant { rivalGrowth = growthBack(from: rival.pose, to: e.pose, seed: seed, query) }
            if farAndAsSignificant || (fitsAsWell && rivalGrowth == nil) {
                verdict.rejection = String(format: "ambiguous: a pose %.1f° and %.3f map scales away fits %d matches, NFA 10^%.1f against 10^%.1f, its fit %.1f (−2 log-likelihood) from this one's",
                                           d.rotationDegrees, d.translation / scale.length, rival.significance.inliers,
                                           rival.significance.log10NFA, s.log10NFA, worseFit)
                clock.rivals += watch.lap()
                return verdict
            }
        }
        clock.rivals += watch.lap()
        if query.gravity != nil, let why = gravityDisagreement(seed, query) {
            clock.gravity += watch.lap()
            verdict.rejection = why
            return verdict
        }
        clock.gravity += watch.lap()
        defer { clock.inheritance += watch.lap() }
        // 2, last: the bounds with the error the growth inherits from its seed (it may grow
        // the pose again: only a pose that passed everything else pays for that).
        (verdict.accuracy, verdict.rejection) = inheritingSeedError(accuracy!, answer: verdict.refined ?? e.pose, grown: grown, seed: seed, query)
        if let bound = verdict.accuracy, let spread = rivalGrowth {
            (verdict.accuracy, verdict.rejection) = reaching(bound, rivalGrowth: spread)
        }
        return verdict
    }

    /// The error of the pose the guided passes reach when started from `rival` instead of
    /// the seed's pose, relative to `answer`, when it lies within the promised accuracy (the
    /// global matches' ambiguity is then one the growth settles, not two answers); nil when
    /// they land farther or fail.
    func growthBack(from rival: CameraFromWorld, to answer: Pose, seed: Attempt,
                    _ query: Query) -> (translation: Double, rotationDegrees: Double)? {
        guard let p = regrow(seed, from: rival, query)?.estimate?.pose else { return nil }
        let d = p.error(to: answer)
        return isWithin(d, options.acceptance.tolerance) ? d : nil
    }

    /// `bound` widened to reach the pose grown from a rival that fits the global matches as
    /// well (`PoseAcceptance.reaching`), or why that exceeds the promised accuracy. On a
    /// street walked forward (a scene seed no tuning saw), a frame whose rival 0.62 m along
    /// the street fitted its matches better, and whose growth from there came back 0.44 m
    /// away, was accepted 0.43 m off claiming 0.16 m; it is now refused.
    func reaching(_ bound: PoseAccuracy,
                  rivalGrowth d: (translation: Double, rotationDegrees: Double)) -> (accuracy: PoseAccuracy?, rejection: String?) {
        let a = options.acceptance
        let widened = a.reaching(bound, rivalGrowth: d)
        guard promises(widened) else {
            return (nil, String(format: "pose not determined: grown from a rival that fits its matches as well it lands %.1f° and %.1f %% of the map scale away, and with that its 95 %% bound is %.1f° and %.1f %%, above %.0f° or %.0f %%",
                                d.rotationDegrees, 100 * d.translation / scale.length, widened.rotationDegrees,
                                100 * widened.position / scale.length, a.tolerance.degrees, 100 * a.tolerance.scales))
        }
        return (widened, nil)
    }

    /// Whether 95 % bounds lie within the promised accuracy on this map
    /// (`PoseAcceptance.promises`).
    func promises(_ accuracy: PoseAccuracy) -> Bool {
        options.acceptance.promises(accuracy, scaleLength: scale.length)
    }

    /// Whether a pose error (`Pose.error(to:)`) lies within `tolerance`, its distance in map
    /// scales.
    func isWithin(_ error: (translation: Double, rotationDegrees: Double), _ tolerance: RelativeTolerance) -> Bool {
        error.rotationDegrees <= tolerance.degrees && error.translation <= scale(tolerance.scales)
    }

    /// The error bounds of a pose with uncertainty `u`, or why they exceed the promised accuracy.
    func bounds(_ u: PoseUncertainty) -> (accuracy: PoseAccuracy?, rejection: String?) {
        let tolerance = options.acceptance.tolerance
        guard u.isDetermined else {
            return (nil, "pose not determined: its inliers do not fix it (too few, or degenerate)")
        }
        let accuracy = PoseAccuracy(position: u.centreBound95, rotationDegrees: u.rotationBound95Degrees)
        guard promises(accuracy) else {
            return (nil, String(format: "pose not determined: its 95 %% bound is %.1f° and %.1f %% of the map scale, above %.0f° or %.0f %%",
                                u.rotationBound95Degrees, 100 * u.centreBound95 / scale.length,
                                tolerance.degrees, 100 * tolerance.scales))
        }
        return (accuracy, nil)
    }

    /// RANSAC samples that draw an all-inlier sample with `confidence` when `inliers` of `n`
    /// matches fit the model.
    static func samplesToFind(inliers: Int, of n: Int, sampleSize: Int, confidence: Double) -> Int {
        let w = min(1, Double(inliers) / Double(max(n, 1)))
        let ws = pow(w, Double(sampleSize))
        guard ws > 0 else { return Int.max }
        guard ws < 1 else { return 1 }
        return Int((log(1 - confidence) / log(1 - ws)).rounded(.up))
    }

    /// Why `e` fails the checks every pose must pass (reprojection error, tilt from the
    /// measured gravity), or nil.
    func consistencyProblem(_ e: PoseEstimate, _ query: Query) -> String? {
        if e.rmsError > options.maxReprojectionError {
            return String(format: "reprojection error %.2f px above %.2f px", e.rmsError, options.maxReprojectionError)
        }
        let tilt = tilt(of: e.cameraFromWorld, from: query.gravity)
        if tilt > options.maxGravityTilt {
            return String(format: "pose tilts %.1f° from the measured gravity (at most %.1f°)", tilt, options.maxGravityTilt)
        }
        return nil
    }

    /// The uncertainty of `a`'s pose from its inliers (`PoseUncertainty`): keypoint noise per
    /// level, each map point's own covariance, the residuals' variance factor, the camera's
    /// calibration accuracy, and the
    /// jackknife over a 6 × 6 grid of image regions.
    func uncertainty(of a: Attempt, _ query: Query) -> PoseUncertainty {
        let undetermined = PoseUncertainty(rotationDegrees: .infinity, centre: .infinity, isDetermined: false)
        guard let e = a.estimate else { return undetermined }
        let pose = e.cameraFromWorld
        let inliers = Array(a.inlierMatches)
        let keypoints = query.keypoints, camera = query.camera
        let a = options.acceptance
        var world = inliers.map { map.points.position($0.train) }
        var covariances = inliers.map { pointUncertainty.covariance(of: $0.train) }
        let pixels = inliers.map { keypoints[$0.query].position }
        // The gravity prior compares with the world's +y: work in the map's upright frame
        // (rotation deviations in the camera frame and centre distances do not change).
        var solved = pose
        if query.gravity != nil, let u = upright, !u.isIdentity {
            world = world.map { u.fromMap * $0 }
            covariances = covariances.map { u.fromMap * $0 * u.fromMap.transposed }
            solved.rotation = pose.rotation * u.fromMap.transposed
        }
        guard var u = try? PoseUncertainty(of: solved, pixels: pixels, worldPoints: world, camera: camera,
                                           noise: a.keypointNoise,
                                           sigmas: inliers.map { octaveSigma[min(keypoints[$0.query].octave, octaveSigma.count - 1)] },
                                           pointCovariances: covariances,
                                           groups: PoseUncertainty.gridRegions(of: pixels, width: camera.width, height: camera.height),
                                           gravity: query.gravity, gravitySigmaDegrees: options.ransac.gravitySigmaDegrees,
                                           intrinsicsSigma: SIMD4(a.focalUncertainty * camera.fx, a.focalUncertainty * camera.fy,
                                                                  a.principalPointUncertainty, a.principalPointUncertainty))
        else { return undetermined }
        if query.gravity != nil, let up = upright, !up.isIdentity, var refined = u.pose {
            refined.rotation = refined.rotation * up.fromMap
            u.pose = refined
        }
        return u
    }

    /// Why the global matches of `evidence` contradict the measured gravity, or nil.
    /// Hypotheses and refinements lean on gravity, so a wrong one (a bad IMU, a client's
    /// axis mix-up) can hold a pose that fits part of the image at its tilt (a wall seen
    /// from higher up and tilted looks much like the true view), and guided matching then
    /// finds support for it. Solved from the image alone, the same global matches give the
    /// true pose, with more inliers and another tilt.
    func gravityDisagreement(_ evidence: Attempt, _ query: Query) -> String? {
        guard query.gravity != nil, let e = evidence.estimate else { return nil }
        // Only a clear image-only pose can veto (inlier ratio above ~0.3: found within 100
        // samples; no polishing, its inlier count is all that matters); on blurred frames
        // P3P finds nothing anyway, so the budget stays small.
        var budget = options.ransac
        budget.maxIterations = 100
        budget.localOptimization = false
        budget.refinementLoss = nil
        let free = solve(evidence.matches, query, gravity: nil, ransac: budget)
        guard let f = free.estimate, 10 * f.inlierCount > 11 * e.inlierCount else { return nil }
        let t = tilt(of: f.cameraFromWorld, from: query.gravity)
        if t <= options.maxGravityTilt { return nil }
        return String(format: "the image alone fits a pose tilted %.1f° from the measured gravity with %d inliers, against %d",
                      t, f.inlierCount, e.inlierCount)
    }

    /// Degrees between the gravity `pose` implies and the measured one (0 when unmeasured).
    func tilt(of pose: CameraFromWorld, from gravity: SIMD3<Double>?) -> Double {
        guard let g = gravity, let upright else { return 0 }
        return angleDegrees(between: pose.rotation * upright.down, and: g)
    }

    /// Where `pose` predicts the map points of `subset` it can see: in front of the camera,
    /// within `maxViewingAngle` degrees of their mapped viewing directions, projecting into
    /// the image.
    func predictedVisible(from pose: CameraFromWorld, _ camera: CameraIntrinsics, among subset: [Int32],
                          maxViewingAngle: Double) -> [SIMD2<Double>] {
        let centre = pose.pose.center
        let minCos = cos(maxViewingAngle * .pi / 180)
        let minDepth = scale(options.projectionDepth.lowerBound)
        let w = Double(camera.width), h = Double(camera.height)
        return subset.compactMap { p -> SIMD2<Double>? in
            let i = Int(p)
            let x = map.points.position(i)
            let c = pose.apply(x)
            guard c.z > minDepth, viewing.isPlausible(point: i, at: x, from: centre, minCos: minCos),
                  let q = camera.project(c), q.x >= 0, q.y >= 0, q.x < w, q.y < h else { return nil }
            return q
        }
    }

    /// Whether a pose found around a tracking prior stays within the prior's tolerance.
    func agrees(_ pose: Pose, with prior: Pose) -> Bool {
        isWithin(pose.error(to: prior), options.priorTolerance)
    }

    /// The fraction of `evidence`'s inliers that are still inliers under `pose`.
    func supportFraction(of evidence: Attempt, under pose: CameraFromWorld, _ query: Query) -> Double {
        let keypoints = query.keypoints, camera = query.camera
        guard let e = evidence.estimate, e.inlierCount > 0 else { return 0 }
        var kept = 0
        for m in evidence.inlierMatches {
            let k = keypoints[m.query]
            guard let p = camera.project(pose.apply(map.points.position(m.train))) else { continue }
            let sigma = octaveSigma[min(k.octave, octaveSigma.count - 1)]
            let d = (p - k.position) / sigma
            if (d * d).sum() < options.ransac.threshold * options.ransac.threshold { kept += 1 }
        }
        return Double(kept) / Double(e.inlierCount)
    }

    /// Why a pose found around a tracking prior fails acceptance, or nil when it passes
    /// (see `LocalizerOptions.minInliers`: guided matches are judged by counts, and by the
    /// odometry they must agree with).
    func priorRejection(_ a: Attempt?, _ query: Query) -> String? {
        guard let a, let e = a.estimate else {
            return "no pose: \(a?.matches.count ?? 0) tentative matches"
        }
        if e.inlierCount < options.minInliers {
            return "too few inliers around the tracking prior (\(e.inlierCount) < \(options.minInliers))"
        }
        let ratio = Double(e.inlierCount) / Double(max(a.matches.count, 1))
        if ratio < options.minInlierRatio {
            return String(format: "inlier ratio %.2f around the tracking prior below %.2f", ratio, options.minInlierRatio)
        }
        return consistencyProblem(e, query)
    }
}

/// The global matches of one frame as the acceptance tests read them: keypoint positions,
/// noise scales and map points, gathered once.
struct GlobalEvidence {
    let localizer: Localizer
    let query: Localizer.Query
    let matches: [DescriptorMatch]
    let pixels: [SIMD2<Double>]
    let sigmas: [Double]
    let world: [SIMD3<Double>]
    /// The keypoints bucketed once for every test of these matches.
    let grid: KeypointGrid

    init(_ localizer: Localizer, matches: [DescriptorMatch], _ query: Localizer.Query) {
        self.localizer = localizer; self.query = query; self.matches = matches
        let keypoints = query.keypoints, octaveSigma = localizer.octaveSigma
        pixels = matches.map { keypoints[$0.query].position }
        sigmas = matches.map { octaveSigma[min(keypoints[$0.query].octave, octaveSigma.count - 1)] }
        world = matches.map { localizer.map.points.position($0.train) }
        grid = KeypointGrid(pixels, cell: (EvidenceSignificance().radii.max() ?? 1) * (sigmas.max() ?? 1))
    }

    /// The a-contrario significance of the matches under `pose`.
    func significance(under pose: CameraFromWorld, sampleSize: Int, searches: Int,
                      radii: [Double]? = nil) -> EvidenceSignificance.Result {
        let camera = query.camera
        let tests = EvidenceSignificance.log10Hypotheses(matches: matches.count, sampleSize: sampleSize,
                                                         solutionsPerSample: sampleSize == 3 ? 4 : 2, searches: searches)
        let projections = world.map { camera.project(pose.apply($0)) }
        return EvidenceSignificance().evaluate(keypoints: pixels, sigmas: sigmas, projections: projections, grid: grid,
                                               imageSize: SIMD2(Double(camera.width), Double(camera.height)), log10Tests: tests,
                                               sampleSize: sampleSize, radii: radii)
    }

    /// Σ min(‖rᵢ‖²/σᵢ², t²) over the matches under `pose` (t: the robust solve's threshold, in
    /// units of each keypoint's noise): −2 log-likelihood of the matches, up to a constant,
    /// with Gaussian keypoint noise for inliers and a uniform spread for the rest.
    func robustCost(under pose: CameraFromWorld) -> Double {
        let t2 = localizer.options.ransac.threshold * localizer.options.ransac.threshold
        var cost = 0.0
        for i in world.indices {
            guard let q = query.camera.project(pose.apply(world[i])) else { cost += t2; continue }
            let d = (q - pixels[i]) / sigmas[i]
            cost += min((d * d).sum(), t2)
        }
        return cost
    }

    /// The best other local optimum of the matches outside `region` around `pose`, with its
    /// significance at `radius` (the pose's own inlier radius, so the two compare).
    func rival(of pose: CameraFromWorld, outside region: RelativeTolerance, radius: Double, sampleSize: Int,
               searches: Int, iterations: Int) -> (pose: CameraFromWorld, significance: EvidenceSignificance.Result)? {
        let rotate = query.gravity != nil && localizer.upright.map { !$0.isIdentity } == true ? localizer.upright : nil
        var around = pose
        if let r = rotate { around.rotation = pose.rotation * r.fromMap.transposed }
        let exclusion = AbsolutePoseEstimator.Exclusion(around: around, maxRotationDegrees: region.degrees,
                                                        maxCentreDistance: localizer.scale(region.scales))
        var ransac = localizer.options.ransac
        ransac.maxIterations = max(1, min(ransac.maxIterations, iterations))
        guard let found = try? AbsolutePoseEstimator(options: ransac)
            .rival(excluding: exclusion, pixels: pixels, worldPoints: rotate.map { r in world.map { r.fromMap * $0 } } ?? world,
                   camera: query.camera, sigmas: sigmas, gravity: query.gravity) else { return nil }
        var p = found.cameraFromWorld
        if let r = rotate { p.rotation = p.rotation * r.fromMap }
        return (p, significance(under: p, sampleSize: sampleSize, searches: searches, radii: [radius]))
    }
}
