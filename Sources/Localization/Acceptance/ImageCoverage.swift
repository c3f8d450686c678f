import Foundation
import Geometry
import Vision

/// Whether a pose explains the whole image, not one patch of it.
///
/// A pose grown from a weak seed can be right about one planar object and wrong about
/// everything around it: the same poster hung in two buildings gives a consistent pose in
/// the wrong one, with a hundred inliers, all on the poster. The map predicts which image
/// regions should show mapped structure; a true pose has inliers in (nearly) all of them,
/// a pose that only fits one object leaves the others empty. Blur and dim light lower the
/// number of inliers per region, not the number of regions that have some. The localizer
/// counts only distinctive inliers (close descriptor matches): guided matching finds loose
/// matches near any predicted projection, so any pose has some of those in every region.
struct ImageCoverage: Sendable, Hashable {
    /// Grid over the image.
    var columns = 4, rows = 4
    /// A cell is expected to show structure when at least this many map points project
    /// into it, and at least this share of all the points that project into the image
    /// (so that a sparse view still has expected cells and a dense one ignores stragglers).
    var minPredictedPoints = 8
    var minPredictedShare = 0.02
    /// A cell counts as explained with at least this many inliers.
    var minInliersPerCell = 2
    /// Right poses explain nearly every expected cell; look-alikes (a pose right about one
    /// patch — the same poster in another building — and wrong about the map) explain the
    /// patch and little else. The counts are weighed as a likelihood ratio between the two
    /// (`log10LikelihoodRatio`), with look-alikes taken as `lookAlikePriorOdds` times rarer
    /// than right poses among poses whose global matches are significant.
    var lookAlikePriorOdds = 100.0
    /// Expected cells and explained cells.
    struct Counts: Hashable { var expected: Int; var explained: Int }

    /// Counts cells from the cell of every predicted-visible map point and of every inlier.
    func counts(predicted: some Sequence<SIMD2<Double>>, inliers: some Sequence<SIMD2<Double>>,
                width: Int, height: Int) -> Counts {
        var predictedPerCell = [Int](repeating: 0, count: columns * rows)
        var inliersPerCell = [Int](repeating: 0, count: columns * rows)
        for p in predicted { if let c = cell(p, width, height) { predictedPerCell[c] += 1 } }
        for p in inliers { if let c = cell(p, width, height) { inliersPerCell[c] += 1 } }
        let needed = max(minPredictedPoints, Int((minPredictedShare * Double(predictedPerCell.reduce(0, +))).rounded(.up)))
        var counts = Counts(expected: 0, explained: 0)
        for c in 0..<(columns * rows) where predictedPerCell[c] >= needed {
            counts.expected += 1
            if inliersPerCell[c] >= minInliersPerCell { counts.explained += 1 }
        }
        return counts
    }

    /// How often a region is explained by a right pose, and by a look-alike (a pose right
    /// about one patch, wrong about the map): probabilities measured over the positive and
    /// negative sessions and the real-photo splits (docs/localizer.md, "Acceptance").
    var explainedIfRight = 0.95
    var explainedIfLookAlike = 0.45

    /// log₁₀ of the likelihood ratio right : look-alike of the counts (each region taken as
    /// an independent trial): positive when the pose explains the image as a right pose
    /// would, negative when it leaves regions unexplained as a look-alike would.
    func log10LikelihoodRatio(_ c: Counts) -> Double {
        let q = explainedIfRight, p = explainedIfLookAlike
        return Double(c.explained) * log10(q / p) + Double(c.expected - c.explained) * log10((1 - q) / (1 - p))
    }

    /// Whether the counts leave a right pose at least as probable as a look-alike.
    func accepts(_ c: Counts) -> Bool {
        log10LikelihoodRatio(c) + log10(lookAlikePriorOdds) >= 0
    }

    private func cell(_ p: SIMD2<Double>, _ width: Int, _ height: Int) -> Int? {
        guard p.x >= 0, p.y >= 0, p.x < Double(width), p.y < Double(height) else { return nil }
        return Int(p.y * Double(rows) / Double(height)) * columns + Int(p.x * Double(columns) / Double(width))
    }
}
