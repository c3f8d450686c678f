import Foundation
import Geometry
import Vision
import VPSModel

/// A tracking answer's bounds widened by the error it inherits from its prior.
///
/// A frame with a tracking prior is matched where the prior predicts each map point
/// (`LocalizerOptions.priorSearch`), and the pose grown from those matches. On a row of
/// look-alike windows, a point's match near a prior that is off is often a neighbour's
/// window that agrees with the prior's error: the pose keeps part of that error, while its
/// hundreds of inliers give it a small covariance and every residual fits. Neither its own
/// bounds nor `inheritingSeedError` (which moves the pose but keeps the seed's matches)
/// can see it. On four synthetic streets walked forward (`scripts/unseen-scenes.py`), a
/// tracking frame near a street's end was placed 22.7 cm off claiming 7.7 cm, where
/// single-shot frames there were 3–7 cm off.
///
/// So the experiment is made with the prior itself: it is moved by its 95 % error both ways
/// along the leading principal direction of the answer's covariance (where the matches hold
/// the pose least, and where a look-alike match can move it); the seed is found again
/// around each moved prior and grown; half the spread of the two poses is added, in
/// quadrature, to the answer's bounds. An answer pinned by distinct content lands on the
/// same pose from either side and keeps its bounds; one that follows its prior moves with
/// it. A moved prior that finds no seed, or a seed that cannot be grown, rejects the frame:
/// the answer then depends on where the search started. Not seen: an answer drawn into the
/// same wrong basin from either side (on those streets, two frames 20 cm off claiming
/// 11.6 and 12.5 cm).
extension Localizer {
    /// The principal directions of the answer's covariance along which the prior is moved:
    /// the leading one. On the four synthetic streets, tracking frames accepted outside
    /// their claim went from 16 of 1,199 to 10 of 1,194 with one direction and to 8 of
    /// 1,191 with two, at about 1.3 and 2 times the time per tracking frame.
    static let priorDirections = 1

    /// `accuracy` widened by the error the answer inherits from `prior`, whose own 95 %
    /// error is `priorError`; or why the widened bounds exceed the tolerance.
    /// `uncertainty` is the answer's (its covariance gives the directions to probe).
    func inheritingPriorError(_ accuracy: PoseAccuracy, prior: Pose, priorError: PoseAccuracy,
                              uncertainty u: PoseUncertainty, _ query: Query) -> (accuracy: PoseAccuracy?, rejection: String?) {
        guard u.covariance.count == 36 else { return (nil, "pose not determined: its covariance is unknown") }
        let start = CameraFromWorld(prior)
        let moves = Array(principalMoves(of: u.covariance).prefix(Self.priorDirections))
        guard let followed = halfSpread(along: moves, from: start,
                                        step: { move in move.map { $0 * Self.stepReaching(priorError, along: move, from: start) } },
                                        answer: { moved in
                                            var unused = StageTimings()
                                            guard let seed = try? priorSeed(query, around: moved.pose, timings: &unused),
                                                  let regrown = try? grow(seed, query, timings: &unused),
                                                  let e = regrown.estimate else { return nil }
                                            return uncertainty(of: regrown, query).pose?.pose ?? e.pose
                                        }) else {
            return (nil, "pose not determined: it is not found again from a prior moved within its error")
        }
        let widened = PoseAccuracy(position: hypot(accuracy.position, followed.position),
                                   rotationDegrees: hypot(accuracy.rotationDegrees, followed.rotationDegrees))
        guard promises(widened) else {
            let tolerance = options.acceptance.tolerance
            return (nil, String(format: "pose not determined: it follows its tracking prior, and with the prior's error its 95 %% bound is %.1f° and %.1f %% of the map scale, above %.0f° or %.0f %%",
                                widened.rotationDegrees, 100 * widened.position / scale.length,
                                tolerance.degrees, 100 * tolerance.scales))
        }
        return (widened, nil)
    }

    /// The multiple of `direction` (a perturbation of `pose`: rotation, then translation)
    /// that moves the camera centre by `error.position` or its rotation by
    /// `error.rotationDegrees`, whichever it reaches first: the prior is moved by its 95 %
    /// error and no farther in any respect.
    static func stepReaching(_ error: PoseAccuracy, along direction: [Double], from pose: CameraFromWorld) -> Double {
        let d = pose.perturbed(by: direction).pose.error(to: pose.pose)
        let reach = [d.translation > 0 ? error.position / d.translation : nil,
                     d.rotationDegrees > 0 ? error.rotationDegrees / d.rotationDegrees : nil].compactMap { $0 }
        return reach.min() ?? 0
    }
}
