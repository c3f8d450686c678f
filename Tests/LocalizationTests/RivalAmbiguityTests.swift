@testable import Localization
import Foundation
import Testing
import VPSModel

/// When a rival pose of the global matches leaves a frame ambiguous
/// (`PoseAcceptance.isRivalAsSignificant`, `rivalFitsAsWell`), and how far a rival the
/// growth settles widens the answer's bounds (`reaching`).
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

    @Test func aRivalTheGrowthSettlesWidensTheBoundsByWhereItLands() {
        // A street walked forward, map scale 23.17 m (tolerance 0.46 m, 2°): the pose's own
        // bounds 0.156 m and 0.56°, and the growth from a rival that fitted the matches
        // better came back 0.44 m and 1.28° from it. The answer was 0.43 m and 1.53° off.
        let widened = acceptance.reaching(PoseAccuracy(position: 0.156, rotationDegrees: 0.56),
                                          rivalGrowth: (translation: 0.44, rotationDegrees: 1.28))
        #expect(abs(widened.position - 0.596) < 1e-12 && abs(widened.rotationDegrees - 1.84) < 1e-12)
        #expect(widened.position >= 0.43 && widened.rotationDegrees >= 1.53)
        #expect(!acceptance.promises(widened, scaleLength: 23.17))
        // A growth that lands close by keeps the pose placed, with the bound it then claims.
        let near = acceptance.reaching(PoseAccuracy(position: 0.156, rotationDegrees: 0.56),
                                       rivalGrowth: (translation: 0.05, rotationDegrees: 0.2))
        #expect(acceptance.promises(near, scaleLength: 23.17))
        // The tolerance holds on both: 2 % of the scale and 2°.
        #expect(acceptance.promises(PoseAccuracy(position: 0.4634, rotationDegrees: 2), scaleLength: 23.17))
        #expect(!acceptance.promises(PoseAccuracy(position: 0.47, rotationDegrees: 1), scaleLength: 23.17))
        #expect(!acceptance.promises(PoseAccuracy(position: 0.1, rotationDegrees: 2.01), scaleLength: 23.17))
    }

    @Test func aRivalFarEnoughToBeWrongNeedsOnlyAComparableNFA() {
        // Beyond (10°, 10 %): within 10⁵ of the pose's NFA is enough, however it fits.
        #expect(acceptance.isRivalAsSignificant(rivalLog10NFA: -4.4, poseLog10NFA: -8.3))
        #expect(!acceptance.isRivalAsSignificant(rivalLog10NFA: -4.4, poseLog10NFA: -10))
        #expect(!acceptance.isRivalAsSignificant(rivalLog10NFA: -2, poseLog10NFA: -4))
    }
}
