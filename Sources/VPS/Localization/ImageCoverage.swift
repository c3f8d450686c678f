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
    /// Unexplained cells tolerated, per ten expected cells (integer division: none below
    /// four). Counted on distinctive inliers, poses grown on wrong scenes explained 36–53 %
    /// of their expected cells and right ones on blurred frames 57–100 %; blur wipes out
    /// whole regions (the frame's fastest-moving part), so a right pose may miss a few.
    var missesPerTenCells = 3

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

    func accepts(_ c: Counts) -> Bool {
        c.expected > 0 && c.expected - c.explained <= c.expected * missesPerTenCells / 10
    }

    private func cell(_ p: SIMD2<Double>, _ width: Int, _ height: Int) -> Int? {
        guard p.x >= 0, p.y >= 0, p.x < Double(width), p.y < Double(height) else { return nil }
        return Int(p.y * Double(rows) / Double(height)) * columns + Int(p.x * Double(columns) / Double(width))
    }
}
