@testable import Localization
import Foundation
import Testing

/// The whole-image check that tells right poses from look-alikes.
@Suite struct ImageCoverageTests {
    let coverage = ImageCoverage()
    /// `n` points spread over the cell at column `c`, row `r` of a 640×480 image (4×4 grid).
    func points(inCell c: Int, _ r: Int, count n: Int) -> [SIMD2<Double>] {
        (0..<n).map { i in SIMD2(Double(c) * 160 + 10 + Double(i % 10) * 14, Double(r) * 120 + 10 + Double((i / 10) % 10) * 10) }
    }
    var everyCell: [(Int, Int)] { (0..<4).flatMap { c in (0..<4).map { r in (c, r) } } }

    @Test func inliersInEveryPredictedRegionPass() {
        let predicted = everyCell.flatMap { points(inCell: $0.0, $0.1, count: 30) }
        let inliers = everyCell.flatMap { points(inCell: $0.0, $0.1, count: 2) }
        let counts = coverage.counts(predicted: predicted, inliers: inliers, width: 640, height: 480)
        #expect(counts == ImageCoverage.Counts(expected: 16, explained: 16))
        #expect(coverage.accepts(counts))
    }

    @Test func inliersOnOneObjectFail() {
        // The map predicts structure everywhere; all inliers sit on one poster (four cells).
        let predicted = everyCell.flatMap { points(inCell: $0.0, $0.1, count: 30) }
        let inliers = [(1, 1), (2, 1), (1, 2), (2, 2)].flatMap { points(inCell: $0.0, $0.1, count: 40) }
        let counts = coverage.counts(predicted: predicted, inliers: inliers, width: 640, height: 480)
        #expect(counts == ImageCoverage.Counts(expected: 16, explained: 4))
        #expect(!coverage.accepts(counts))
    }

    @Test func unexplainedRegionsWeighAsTheLikelihoodOfALookAlike() {
        // Each explained region multiplies the odds right : look-alike by 0.95 / 0.45, each
        // unexplained one by 0.05 / 0.55; look-alikes start 100 times rarer.
        let c = ImageCoverage.Counts(expected: 16, explained: 11)
        #expect(abs(coverage.log10LikelihoodRatio(c) - (11 * log10(0.95 / 0.45) + 5 * log10(0.05 / 0.55))) < 1e-12)
        let predicted = everyCell.flatMap { points(inCell: $0.0, $0.1, count: 30) }
        let all = everyCell.map { points(inCell: $0.0, $0.1, count: 3) }
        // 16 expected regions: 5 unexplained still leave a right pose likelier, 6 do not.
        #expect(coverage.accepts(coverage.counts(predicted: predicted, inliers: all.dropFirst(5).joined(), width: 640, height: 480)))
        #expect(!coverage.accepts(coverage.counts(predicted: predicted, inliers: all.dropFirst(6).joined(), width: 640, height: 480)))
        // 3 expected regions say little: one explained is enough, none is not.
        let three = Array(everyCell.prefix(3))
        let p3 = three.flatMap { points(inCell: $0.0, $0.1, count: 30) }
        let i3 = three.map { points(inCell: $0.0, $0.1, count: 3) }
        #expect(coverage.accepts(coverage.counts(predicted: p3, inliers: i3.dropFirst(2).joined(), width: 640, height: 480)))
        #expect(!coverage.accepts(coverage.counts(predicted: p3, inliers: [], width: 640, height: 480)))
    }

    @Test func sparselyPredictedRegionsAreNotExpected() {
        // Cells with fewer than 8 predicted points, or under 2 % of all predicted points,
        // need no inliers (blank walls, stragglers); points outside the image are ignored;
        // with nothing predicted at all, the image cannot speak against the pose.
        let outside = [SIMD2(-5.0, 10), SIMD2(700, 10)]
        let sparse = points(inCell: 0, 0, count: 30) + points(inCell: 3, 3, count: 7) + outside
        let counts = coverage.counts(predicted: sparse, inliers: points(inCell: 0, 0, count: 2), width: 640, height: 480)
        #expect(counts == ImageCoverage.Counts(expected: 1, explained: 1))
        let dense = points(inCell: 0, 0, count: 300) + points(inCell: 1, 0, count: 300) + points(inCell: 3, 3, count: 3)
        #expect(coverage.counts(predicted: dense + points(inCell: 2, 0, count: 9), inliers: [], width: 640, height: 480).expected == 2)
        #expect(coverage.counts(predicted: dense + points(inCell: 2, 0, count: 14), inliers: [], width: 640, height: 480).expected == 3)
        #expect(coverage.accepts(coverage.counts(predicted: [], inliers: [], width: 640, height: 480)))
    }
}
