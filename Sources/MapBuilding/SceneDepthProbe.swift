import Foundation
import Geometry
import Vision
import VPSModel
import Support

/// How far from the cameras the scene lies, measured from the images: a few keyframe
/// pairs are matched along their whole epipolar lines and triangulated, and the depths of
/// the points found bound the search of the full matching stage. Nothing is assumed about
/// the map's units.
struct SceneDepthProbe: Sendable {
    /// Least triangulated points for the measurement to count.
    var minPoints = 30
    /// The range is widened by this factor on both sides of the 2nd–98th percentile.
    var margin = 2.0

    struct Measurement: Sendable {
        /// Depths worth searching in the matching stage (map units).
        var range: ClosedRange<Double>
        /// Median depth of the probe points: the scene's own length scale.
        var median: Double
        var points: Int
    }

    /// The depth range for a pair when nothing is known yet: from a thousandth to ten
    /// thousand times its baseline, i.e. anything a pixel-accurate match could triangulate.
    static func unbounded(baseline: Double) -> ClosedRange<Double> { (baseline * 1e-3)...(baseline * 1e4) }

    func measure(pairs: [(a: Int, b: Int)], features: [MapBuilder.KeyframeFeatures], frames: [MapBuildFrame],
                 options: MapBuildOptions, threads: Int) throws -> Measurement? {
        let depths = try WorkerThreads.map(count: pairs.count, threads: threads, makeState: { () }) { _, p -> [Double] in
            let (a, b) = (pairs[p].a, pairs[p].b)
            let baseline = length(frames[a].pose.center - frames[b].pose.center)
            let matches = try MapBuilder.match(features[a], features[b], frames[a], frames[b],
                                               depthRange: Self.unbounded(baseline: baseline), options)
            guard !matches.isEmpty else { return [] }
            func view(_ f: MapBuildFrame) -> CameraView {
                var k = f.intrinsics
                k.distortion = []
                return CameraView(pose: f.pose, intrinsics: k)
            }
            let triangulator = Triangulator(minParallaxDegrees: options.minParallaxDegrees,
                                            maxError: options.maxReprojectionError, refine: true)
            let points = try triangulator.triangulatePairs(view(frames[a]), view(frames[b]),
                                                           pixelsA: matches.map { features[a].undistorted[$0.a] },
                                                           pixelsB: matches.map { features[b].undistorted[$0.b] })
            let aFromMap = frames[a].pose.inverse, bFromMap = frames[b].pose.inverse
            return points.filter(\.isValid).flatMap { [aFromMap.apply($0.position).z, bFromMap.apply($0.position).z] }
        }
        let all = depths.flatMap { $0 }.sorted()
        guard all.count >= 2 * minPoints else { return nil }
        func at(_ p: Double) -> Double { Statistics.lowerPercentile(sorted: all, p)! }
        return Measurement(range: (at(2) / margin)...(at(98) * margin), median: at(50), points: all.count / 2)
    }
}
