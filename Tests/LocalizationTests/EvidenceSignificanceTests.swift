@testable import Localization
import Foundation
import Testing
import Support

/// The a-contrario test of a pose's global matches (`EvidenceSignificance`).
@Suite struct EvidenceSignificanceTests {
    typealias Rng = SplitMix64
    let size = SIMD2(640.0, 480.0)
    let test = EvidenceSignificance()

    func random(_ n: Int, _ rng: inout Rng, in box: (ClosedRange<Double>, ClosedRange<Double>)? = nil) -> [SIMD2<Double>] {
        let (x, y) = box ?? (0...640, 0...480)
        return (0..<n).map { _ in SIMD2(Double.random(in: x, using: &rng), Double.random(in: y, using: &rng)) }
    }

    @Test func theTailIsTheBinomialsForEqualChancesAndChernoffBoundsItFromAbove() {
        // P(X ≥ 3) for X ~ Binomial(10, 0.1) = 1 − P(0) − P(1) − P(2).
        let p = [Double](repeating: 0.1, count: 10)
        let p0: Double = pow(0.9, 10), p1: Double = 10 * 0.1 * pow(0.9, 9), p2: Double = 45 * 0.01 * pow(0.9, 8)
        let exact = 1 - p0 - p1 - p2
        #expect(abs(EvidenceSignificance.exactLog10Tail(p, atLeast: 3) - log10(exact)) < 1e-9)
        #expect(EvidenceSignificance.exactLog10Tail(p, atLeast: 11) == -.infinity)
        // Tiny tails do not underflow to −∞.
        let rare = [Double](repeating: 1e-4, count: 400)
        let deep = EvidenceSignificance.exactLog10Tail(rare, atLeast: 60)
        #expect(deep.isFinite && deep < -150)
        for k in [5, 20, 60] {
            let chernoff = EvidenceSignificance.chernoffLog10Tail(rare, atLeast: k)
            let exactK = EvidenceSignificance.exactLog10Tail(rare, atLeast: k)
            #expect(chernoff >= exactK - 1e-9, "k \(k): bound \(chernoff) below exact \(exactK)")
            #expect(chernoff <= exactK + 0.2 * abs(exactK) + 2, "k \(k): bound \(chernoff) too loose against \(exactK)")
        }
    }

    /// Chances as a dim, smeared frame's 114 global matches gave them: six near 1 % (where
    /// the matched keypoints crowd), 64 of a few in a million, 44 that cannot succeed. The
    /// tail must fall with k across the switch from the exact sum to the Chernoff bound
    /// (the rival search's budget is found by bisection on it), and the bound must be the
    /// minimum over t, not a Newton iterate short of it (which said 0 for k = 49…56 here).
    @Test func theTailFallsWithKAcrossTheSwitchToChernoffOnUnequalSmallChances() {
        let tiny = [1.4e-6, 2.1e-6, 3e-6, 4.3e-6, 6.2e-6, 8.9e-6, 1.28e-5, 1.84e-5]
        let p = [Double](repeating: 0.0088, count: 5) + [0.0175] + (0..<64).map { tiny[$0 % 8] }
            + [Double](repeating: 0, count: 44)
        let tails = (1...70).map { test.log10Tail(p, atLeast: $0) }
        for k in 1..<tails.count {
            #expect(tails[k] < tails[k - 1], "k \(k + 1): \(tails[k]) after \(tails[k - 1])")
        }
        #expect(test.log10Tail(p, atLeast: 71) == -.infinity)
        for k in [49, 55, 65] {
            let chernoff = EvidenceSignificance.chernoffLog10Tail(p, atLeast: k)
            let exact = EvidenceSignificance.exactLog10Tail(p, atLeast: k)
            #expect(chernoff >= exact - 1e-9, "k \(k): bound \(chernoff) below exact \(exact)")
            #expect(chernoff <= exact + 0.2 * abs(exact) + 2, "k \(k): bound \(chernoff) too loose against \(exact)")
        }
        // Only the trials that can succeed count: with exactly k of them, all must.
        let few: [Double] = [0.5, 0.25, 0, 0]
        #expect(abs(EvidenceSignificance.chernoffLog10Tail(few, atLeast: 2) - log10(0.125)) < 1e-9)
        #expect(EvidenceSignificance.chernoffLog10Tail(few, atLeast: 3) == -.infinity)
    }

    @Test func hypothesesCountMinimalSamples() {
        // C(100, 3) · 4 solutions, and C(50, 2) · 2 · 2 searches.
        #expect(abs(EvidenceSignificance.log10Hypotheses(matches: 100, sampleSize: 3, solutionsPerSample: 4)
                    - log10(161_700.0 * 4)) < 1e-9)
        #expect(abs(EvidenceSignificance.log10Hypotheses(matches: 50, sampleSize: 2, solutionsPerSample: 2, searches: 2)
                    - log10(1225.0 * 4)) < 1e-9)
    }

    @Test func unrelatedMatchesAreNotSignificantAndADozenSpreadInliersAre() {
        var rng = Rng(seed: 1)
        let n = 200
        let keypoints = random(n, &rng)
        let sigmas = [Double](repeating: 1, count: n)
        let tests = EvidenceSignificance.log10Hypotheses(matches: n, sampleSize: 3, solutionsPerSample: 4)
        // A pose unrelated to the keypoints: projections anywhere.
        let chance = test.evaluate(keypoints: keypoints, sigmas: sigmas, projections: random(n, &rng),
                                   imageSize: size, log10Tests: tests, sampleSize: 3)
        #expect(!(chance.log10NFA <= -3))
        // The same, with 12 matches (and their neighbours' chances) projecting within a pixel.
        var projections: [SIMD2<Double>?] = random(n, &rng)
        for i in 0..<12 { projections[i] = keypoints[i] + SIMD2(0.4, -0.3) }
        let twelve = test.evaluate(keypoints: keypoints, sigmas: sigmas, projections: projections,
                                   imageSize: size, log10Tests: tests, sampleSize: 3)
        #expect(twelve.inliers == 12 && twelve.radius == 1)
        #expect(twelve.log10NFA < -10)
        // Behind the camera (nil) is never an inlier.
        let behind = test.evaluate(keypoints: keypoints, sigmas: sigmas, projections: [SIMD2<Double>?](repeating: nil, count: n),
                                   imageSize: size, log10Tests: tests, sampleSize: 3)
        #expect(behind.inliers == 0 && behind.log10NFA == .infinity)
    }

    @Test func clusteredKeypointsMakeTheSameInliersWeakerEvidence() {
        // Twelve inliers among keypoints crowded into one small patch are likelier by chance
        // than twelve among keypoints spread over the image.
        var rng = Rng(seed: 9)
        let n = 150
        let sigmas = [Double](repeating: 1, count: n)
        func nfa(_ keypoints: [SIMD2<Double>]) -> Double {
            var projections: [SIMD2<Double>?] = keypoints.map { $0 + SIMD2(37, -29) }  // all off
            for i in 0..<12 { projections[i] = keypoints[i] + SIMD2(1.5, 1.5) }
            return test.evaluate(keypoints: keypoints, sigmas: sigmas, projections: projections, imageSize: size,
                                 log10Tests: 6, sampleSize: 3).log10NFA
        }
        let spread = nfa(random(n, &rng))
        let clustered = nfa(random(n, &rng, in: (300...340, 220...260)))
        #expect(clustered > spread + 5, "clustered \(clustered), spread \(spread)")
    }

    @Test func inliersNeededIsTheLeastCountThatReachesTheTarget() throws {
        var rng = Rng(seed: 5)
        let n = 150
        let keypoints = random(n, &rng)
        var projections: [SIMD2<Double>?] = random(n, &rng)
        for i in 0..<20 { projections[i] = keypoints[i] }
        let r = test.evaluate(keypoints: keypoints, sigmas: [Double](repeating: 1, count: n), projections: projections,
                              imageSize: size, log10Tests: 6, sampleSize: 3)
        let k = try #require(test.inliersNeeded(for: -3, r))
        #expect(r.log10Tests + test.log10Tail(r.chances, atLeast: k) <= -3)
        #expect(r.log10Tests + test.log10Tail(r.chances, atLeast: k - 1) > -3)
    }
}
