@testable import Localization
import Foundation
import Testing

/// When a rival pose of the global matches leaves a frame ambiguous
/// (`PoseAcceptance.isRivalAsSignificant`, `rivalFitsAsWell`).
@Suite struct RivalAmbiguityTests {
    let acceptance = PoseAcceptance()

    @Test func chiSquareQuantilesAreTheTabulatedOnes() {
        // Abramowitz & Stegun, table 26.8.
        for (p, k, x) in [(0.95, 2, 5.99146), (0.95, 4, 9.48773), (0.95, 6, 12.59159), (0.99, 6, 16.81189), (0.5, 4, 3.35669)] {
            #expect(abs(PoseAcceptance.chiSquareQuantile(p, degreesOfFreedom: k) - x) < 1e-4, "χ²(\(p), \(k))")
        }
        #expect(PoseAcceptance.chiSquareQuantile(0, degreesOfFreedom: 6) == 0)
        #expect(PoseAcceptance.chiSquareQuantile(1, degreesOfFreedom: 6) == .infinity)
    }

    @Test func aRivalThatFitsAsWellCountsAndOneThatFitsWorseDoesNot() {
        // Within the pose's 95 % likelihood region (χ²₆ 12.59), at any NFA margin: a dim,
        // smeared wall's rival fitted its matches 14 better than the pose placed 30 cm off.
        #expect(acceptance.rivalFitsAsWell(rivalLog10NFA: -16, worseFit: -14, freeParameters: 6))
        #expect(acceptance.rivalFitsAsWell(rivalLog10NFA: -40, worseFit: 12, freeParameters: 6))
        // Outside it the matches tell the two apart (a monstree photo's rival 2 % away
        // fitted them 18 worse).
        #expect(!acceptance.rivalFitsAsWell(rivalLog10NFA: -98, worseFit: 18, freeParameters: 6))
        // With gravity the pose has four free parameters: χ²₄ 9.49.
        #expect(acceptance.rivalFitsAsWell(rivalLog10NFA: -10, worseFit: 9, freeParameters: 4))
        #expect(!acceptance.rivalFitsAsWell(rivalLog10NFA: -10, worseFit: 10, freeParameters: 4))
        // An insignificant rival never counts, however it fits.
        #expect(!acceptance.rivalFitsAsWell(rivalLog10NFA: -2, worseFit: -100, freeParameters: 6))
    }

    @Test func aRivalFarEnoughToBeWrongNeedsOnlyAComparableNFA() {
        // Beyond (10°, 10 %): within 10⁵ of the pose's NFA is enough, however it fits.
        #expect(acceptance.isRivalAsSignificant(rivalLog10NFA: -4.4, poseLog10NFA: -8.3))
        #expect(!acceptance.isRivalAsSignificant(rivalLog10NFA: -4.4, poseLog10NFA: -10))
        #expect(!acceptance.isRivalAsSignificant(rivalLog10NFA: -2, poseLog10NFA: -4))
    }
}
