import Foundation
import Geometry
import Vision

/// When a pose counts: the acceptance thresholds, the checks a pose grown from a weak seed
/// must pass, and the checks against the device's gravity and a tracking prior. Each
/// returns a reason a person can read, which the frame's result reports.
extension Localizer {
    func accepts(_ a: Attempt, _ query: Query) -> Bool { rejection(a, query) == nil }

    /// A pose with too few inliers to accept, but enough to grow by guided matching.
    func isWeakSeed(_ a: Attempt, _ query: Query) -> Bool {
        guard let e = a.estimate else { return false }
        let minInliers = query.gravity == nil ? options.weakSeed.minInliers : options.weakSeed.minInliersWithGravity
        return e.inlierCount >= minInliers && e.rmsError <= options.maxReprojectionError
            && tilt(of: e.cameraFromWorld, from: query.gravity) <= options.maxGravityTilt
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

    /// Why a pose grown from a weak seed is not confirmed, or nil when it is: it must pass a
    /// stricter acceptance, with enough distinctive inliers, and explain with them every part
    /// of the image the map says it shows. The inlier counts asked for scale with what the
    /// map can show from the pose (`WeakSeedOptions.grownVisibleShare`): a sparse map of a few
    /// hundred points cannot give a true pose the fifty inliers a dense one gives.
    func confirmationProblem(grownFrom seed: Attempt, _ grown: Attempt, _ query: Query) -> String? {
        let weak = "weak seed (\(seed.inliers) inliers)"
        let w = options.weakSeed
        guard let e = grown.estimate else { return "\(weak) did not grow" }
        let distinctive = grown.inlierMatches.filter { $0.distance <= w.distinctiveDistance }
            .map { query.keypoints[$0.query].position }
        // Projecting the whole map (28,000 points on the gallery) is the costly part: a pose
        // that meets the dense-map counts, which are the most ever asked, needs it only for
        // the coverage check, after the cheap ones.
        var predicted: [SIMD2<Double>]?
        var needed = (inliers: w.minGrownInliers, distinctive: w.minDistinctiveInliers)
        if grown.inliers < needed.inliers || distinctive.count < needed.distinctive {
            let p = predictedVisible(from: e.cameraFromWorld, query.camera)
            predicted = p
            needed = w.needed(visible: p.count)
        }
        let visible = predicted.map { " (\($0.count) map points predicted visible)" } ?? ""
        if grown.inliers < needed.inliers {
            return "\(weak) grew to \(grown.inliers) < \(needed.inliers) inliers\(visible)"
        }
        let ratio = Double(e.inlierCount) / Double(max(grown.matches.count, 1))
        if ratio < w.minGrownInlierRatio {
            return String(format: "%@ grew to inlier ratio %.2f below %.2f", weak, ratio, w.minGrownInlierRatio)
        }
        if distinctive.count < needed.distinctive {
            return "\(weak) grew to \(distinctive.count) < \(needed.distinctive) distinctive inliers\(visible)"
        }
        let centre = e.pose.center
        let nearest = map.keyframes.lazy.map { length($0.pose.translation - centre) }.min() ?? .infinity
        if nearest > scale(w.maxDistanceToKeyframes) {
            return String(format: "%@ grew to a pose %.2f map scales from the nearest mapping keyframe", weak,
                          nearest / scale.length)
        }
        let counts = w.coverage.counts(predicted: predicted ?? predictedVisible(from: e.cameraFromWorld, query.camera),
                                       inliers: distinctive,
                                       width: query.camera.width, height: query.camera.height)
        if !w.coverage.accepts(counts) {
            return "\(weak) grew to a pose that explains \(counts.explained) of \(counts.expected) image regions"
        }
        return nil
    }

    /// Where `pose` predicts the map points it can see: in front of the camera, within
    /// their mapped viewing directions, projecting into the image.
    func predictedVisible(from pose: CameraFromWorld, _ camera: CameraIntrinsics) -> [SIMD2<Double>] {
        let centre = pose.pose.center
        let minCos = cos(options.maxViewingAngle * .pi / 180)
        let minDepth = scale(options.projectionDepth.lowerBound)
        let w = Double(camera.width), h = Double(camera.height)
        return (0..<map.points.count).compactMap { i -> SIMD2<Double>? in
            let x = map.points.position(i)
            let c = pose.apply(x)
            guard c.z > minDepth, viewing.isPlausible(point: i, at: x, from: centre, minCos: minCos),
                  let p = camera.project(c), p.x >= 0, p.y >= 0, p.x < w, p.y < h else { return nil }
            return p
        }
    }

    /// Whether a pose found around a tracking prior stays within the prior's tolerance.
    func agrees(_ pose: Pose, with prior: Pose) -> Bool {
        let e = pose.error(to: prior)
        return e.translation <= scale(options.priorTolerance.scales) && e.rotationDegrees <= options.priorTolerance.degrees
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

    /// Why an attempt fails acceptance, or nil when it passes.
    func rejection(_ a: Attempt?, _ query: Query) -> String? {
        guard let a, let e = a.estimate else {
            return "no pose: \(a?.matches.count ?? 0) tentative matches"
        }
        if e.inlierCount < options.minInliers {
            return "too few inliers (\(e.inlierCount) < \(options.minInliers))"
        }
        let ratio = Double(e.inlierCount) / Double(max(a.matches.count, 1))
        if ratio < options.minInlierRatio {
            return String(format: "inlier ratio %.2f below %.2f", ratio, options.minInlierRatio)
        }
        if e.rmsError > options.maxReprojectionError {
            return String(format: "reprojection error %.2f px above %.2f px", e.rmsError, options.maxReprojectionError)
        }
        let tilt = tilt(of: e.cameraFromWorld, from: query.gravity)
        if tilt > options.maxGravityTilt {
            return String(format: "pose tilts %.1f° from the measured gravity (at most %.1f°)", tilt, options.maxGravityTilt)
        }
        return nil
    }
}
