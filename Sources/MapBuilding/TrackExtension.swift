import Foundation
import Geometry
import Vision
import VPSModel

/// Finds the observations a point's pairwise matches missed: the point is projected into
/// every keyframe paired with one of its views, and the unclaimed feature nearest in
/// descriptor (within the reprojection tolerance of its pyramid level, and clearly better
/// than the next candidate there) joins its track. The extended track is then
/// re-triangulated over all its observations, outliers dropped as in triangulation.
/// Longer tracks make a point matchable from more viewing directions and refine its
/// position; nothing here depends on the map's units.
struct TrackExtension: Sendable {
    var options: MapBuildOptions

    struct Proposal: Sendable {
        var point: Int
        var keyframe: Int
        var feature: Int
        var distance: Int
    }

    /// Proposed new observations for one point (at most one per keyframe).
    func proposals(point index: Int, position x: SIMD3<Double>, track: [TrackBuilder.Observation],
                   candidates: [Int], features: [MapBuilder.KeyframeFeatures], frames: [MapBuildFrame],
                   grids: [FeatureGrid]) -> [Proposal] {
        let cosMax = cos(options.maxViewAngleDegrees * .pi / 180)
        let trackDirections = track.map { normalize(frames[$0.keyframe].pose.center - x) }
        let trackDescriptors = track.map { o in features[o.keyframe].descriptors[32 * o.feature..<32 * o.feature + 32] }
        let scale = Double(options.orb.scaleFactor)
        let maxRadius = options.maxReprojectionError * pow(scale, Double(options.orb.levels - 1))
        var out: [Proposal] = []
        for k in candidates {
            let frame = frames[k]
            let direction = normalize(frame.pose.center - x)
            // Descriptors change with the viewing angle: only views near a known one compare.
            guard trackDirections.contains(where: { dot($0, direction) >= cosMax }) else { continue }
            var pinhole = frame.intrinsics
            pinhole.distortion = []
            let c = frame.pose.inverse.apply(x)
            guard c.z > 0, let px = pinhole.project(c), pinhole.contains(px) else { continue }
            let f = features[k]
            var best = -1, bestDistance = Int.max, second = Int.max
            grids[k].forEach(inBoxFrom: px - maxRadius, to: px + maxRadius) { j in
                let e = f.undistorted[j] - px
                guard (e * e).sum().squareRoot() <= MapBuilder.allowedError(octave: f.octaves[j], options) else { return }
                let d = trackDescriptors.map { MapBuilder.hamming($0, f.descriptors[32 * j..<32 * j + 32]) }.min()!
                if d < bestDistance { second = bestDistance; bestDistance = d; best = j }
                else if d < second { second = d }
            }
            guard best >= 0, bestDistance <= options.maxHammingDistance,
                  second == Int.max || Float(bestDistance) < options.ratio * Float(second) else { continue }
            out.append(Proposal(point: index, keyframe: k, feature: best, distance: bestDistance))
        }
        return out
    }
}
