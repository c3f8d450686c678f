import Foundation
import Geometry
import Testing
import VPSModel
@testable import Evaluation

/// A batch keeps inlier matches only for the frames its report can draw
/// (`WorstFrameRetention`), whatever order the workers finish in.
@Suite struct WorstFrameRetentionTests {
    /// Frames of every kind: failed, placed with ground truth (errors from 0 to 40 cm), and
    /// placed without ground truth; each with one inlier match.
    static func outcomes(_ n: Int) -> [FrameOutcome] {
        var rng = SystemRandomNumberGenerator()
        return (0..<n).map { i in
            let truth = Pose(rotation: .identity, translation: SIMD3(Double(i), 0, 0))
            var result: LocalizationResult
            switch i % 5 {
            case 0: result = LocalizationResult(status: .rejected, reason: "no pose")
            default:
                let off = Double.random(in: 0...0.4, using: &rng)
                result = LocalizationResult(status: .localized, pose: Pose(rotation: .identity, translation: truth.translation + SIMD3(off, 0, 0)),
                                            inliers: Int.random(in: 20...400, using: &rng))
            }
            result.inlierMatches = [.init(pixel: SIMD2(1, 2), point: 3)]
            return FrameOutcome(frameId: String(i), timestamp: Double(i), result: result, groundTruth: i % 5 == 4 ? nil : truth)
        }
    }

    @Test func keepsEveryFrameTheReportShowsAndFewOthers() {
        let all = Self.outcomes(500)
        var kept = Set(all.indices)
        var retention = WorstFrameRetention(primary: ErrorThreshold(metres: 0.05, degrees: 2))
        for i in all.indices.shuffled() {
            for j in retention.offer(all[i], at: i) { kept.remove(j) }
        }
        let shown = WorstFrames.select(all, thresholds: ReportThresholds(levels: [(0.05, 2)]))
        #expect(shown.count == WorstFrames.shown)
        for o in shown { #expect(kept.contains(Int(o.frameId)!), "frame \(o.frameId) is shown but lost its matches") }
        #expect(kept.count <= WorstFrames.maxFailedShown + 2 * WorstFrames.shown)
    }
}
