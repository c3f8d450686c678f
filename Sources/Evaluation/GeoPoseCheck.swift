import Geodesy
import Support
import VPSModel

/// How close the answers' GeoPoses lie to where the cameras truly were on the earth, for a
/// session whose true georeference is known (`RecordedSession.georeference`, exact in a
/// synthetic session made with `--georef`): the horizontal distance, in metres, between
/// each localized frame's GeoPose and its ground-truth pose placed by that georeference.
public struct GeoPoseCheck: Sendable, Hashable, Codable {
    /// Localized frames with ground truth and a GeoPose.
    public var frames: Int
    public var medianHorizontalError: Double
    public var maxHorizontalError: Double
    /// Of those frames, the ones whose horizontal error lies within their `geoAccuracy`.
    public var withinClaim: Int

    /// Nil when no frame of `outcomes` has ground truth and a GeoPose. One pass; the errors
    /// go to a `SpilledSort` for their exact median.
    public init?<Outcomes: Sequence<FrameOutcome>>(_ outcomes: Outcomes, truth: Georeference) {
        let errors = SpilledSort()
        var within = 0, largest = -Double.infinity
        for o in outcomes {
            guard o.result.isLocalized, let gt = o.groundTruth, let geo = o.result.geoPose else { continue }
            let horizontal = truth.position(ofMapPoint: gt.center).horizontalDistance(to: geo.position)
            errors.append(horizontal)
            largest = max(largest, horizontal)
            if let claim = o.result.geoAccuracy, horizontal <= claim.position { within += 1 }
        }
        guard let median = errors.percentiles([50])?.values[0] else { return nil }
        frames = errors.count
        medianHorizontalError = median
        maxHorizontalError = largest
        withinClaim = within
    }

    /// One line for `arcloud localize`'s summary.
    public var text: String {
        String(format: "GeoPose error     median %.2f m, max %.2f m horizontally (%d frames; %d within their claimed accuracy)",
               medianHorizontalError, maxHorizontalError, frames, withinClaim)
    }
}
