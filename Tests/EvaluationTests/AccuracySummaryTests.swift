import Testing
import Foundation
import Geometry
import Evaluation
import Support
import VPSModel

@Suite struct AccuracySummaryTests {
    @Test func percentilesInterpolateLikeNumpy() {
        #expect(Statistics.percentile([1, 2, 3, 4], 50) == 2.5)
        #expect(Statistics.percentile([10], 90) == 10)
        #expect(Statistics.percentile([], 50) == nil)
        #expect(abs(Statistics.percentile([0, 10, 20, 30, 40], 90)! - 36) < 1e-12)
        #expect(Statistics.rms([3, 4]) == (12.5).squareRoot())
    }

    private func outcome(_ i: Int, error: Double?, truth: Bool = true) -> FrameOutcome {
        let gt = Pose(rotation: .identity, translation: SIMD3(Double(i), 0, 0))
        var result = LocalizationResult(status: .rejected, reason: "too few inliers")
        if let e = error {
            result = LocalizationResult(status: .localized,
                                        pose: Pose(rotation: .identity, translation: gt.translation + SIMD3(e, 0, 0)),
                                        sectionId: "a", inliers: 100)
        }
        result.timings.total = Double(i)
        return FrameOutcome(frameId: "\(i)", timestamp: Double(i) / 10, result: result, groundTruth: truth ? gt : nil)
    }

    @Test func calibrationCountsFramesWithinTheirClaimedAccuracy() throws {
        // Claims of 0.05 units and 1°: errors 0.01 (within), 0.10 (outside), 0.04 (within);
        // a rejected frame and a frame without ground truth do not count.
        var outcomes = [outcome(0, error: 0.01), outcome(1, error: 0.10), outcome(2, error: 0.04), outcome(3, error: nil),
                        outcome(4, error: 0.01, truth: false)]
        for i in outcomes.indices where outcomes[i].result.isLocalized {
            outcomes[i].result.accuracy = PoseAccuracy(position: 0.05, rotationDegrees: 1)
        }
        let c = try #require(AccuracySummary(outcomes: outcomes, wallSeconds: 1).calibration)
        #expect(c.accepted == 3 && c.withinClaim == 2)
        #expect(abs(c.medianPositionRatio - 0.8) < 1e-12)
        let s = AccuracySummary(outcomes: outcomes, wallSeconds: 1)
        #expect(s.text.contains("within claim      66.7 % (2 of 3"), "\(s.text)")
        // A claim of the rotation alone failing puts the frame outside too.
        outcomes[0].result.accuracy = PoseAccuracy(position: 0.05, rotationDegrees: 0)
        outcomes[0].result.pose?.rotation = Quaternion(axis: SIMD3(0, 1, 0), angle: 0.01)
        #expect(AccuracySummary(outcomes: outcomes, wallSeconds: 1).calibration?.withinClaim == 1)
        // Runs without claims (written before accuracy existed) have no calibration.
        #expect(AccuracySummary(outcomes: [outcome(0, error: 0.01)], wallSeconds: 1).calibration == nil)
        // summary.json carries it.
        let json = try JSONEncoder().encode(s)
        let back = try JSONDecoder().decode(AccuracySummary.self, from: json)
        #expect(back.calibration == s.calibration)
    }

    @Test func recallCountsRejectedFramesAsMisses() {
        let outcomes = [outcome(0, error: 0.01), outcome(1, error: 0.10), outcome(2, error: 2.0), outcome(3, error: nil)]
        let s = AccuracySummary(outcomes: outcomes, wallSeconds: 2)
        #expect(s.frames == 4 && s.localized == 3)
        #expect(s.successRate == 0.75)
        #expect(s.recall.map(\.fraction) == [0.25, 0.5, 0.5])
        #expect(abs(s.medianTranslationError! - 0.10) < 1e-12)
        #expect(abs(s.ateRMSE! - ((0.01 * 0.01 + 0.01 + 4) / 3).squareRoot()) < 1e-12)
        #expect(s.framesPerSecond == 2)
        let total = s.latency.first { $0.stage == "total" }!
        #expect(total.p50 == 1.5)
    }

    /// On a map in unknown units (a COLMAP model) a bound in metres means
    /// nothing; the thresholds are shares of the scene scale and the terminal summary,
    /// summary.json and report.html say so. A metric map keeps (5 cm, 2°)….
    @Test func onAMapInUnknownUnitsThresholdsAreSharesOfTheSceneScale() throws {
        #expect(ErrorThreshold.forMap(units: .metres, sceneScale: 4) == ErrorThreshold.standard)
        // Errors of 0.06, 0.22 and 0.5 units in a scene of scale 4 (1.5 %, 5.5 %, 12.5 %): within
        // 2 % (0.08 units) one frame of four, within 5 % one, within 10 % two — where metric
        // bounds would have counted none, two and three.
        let outcomes = [outcome(0, error: 0.06), outcome(1, error: 0.22), outcome(2, error: 0.5), outcome(3, error: nil)]
        #expect(AccuracySummary(outcomes: outcomes, wallSeconds: 1).recall.map(\.fraction) == [0, 0.5, 0.75])
        let s = AccuracySummary(outcomes: outcomes, wallSeconds: 1,
                                thresholds: ErrorThreshold.forMap(units: .unknown, sceneScale: 4))
        #expect(s.recall.map(\.fraction) == [0.25, 0.25, 0.5])
        #expect(s.sceneScale == 4)
        #expect(s.text.contains("within (2 % of scene scale, 2°)"), "\(s.text)")
        #expect(s.text.contains("(10 % of scene scale, 10°)"))
        #expect(!s.text.contains(" cm"), "\(s.text)")
        #expect(s.text.contains("(5.50 %)"), "the median error as a share of the scene scale: \(s.text)")

        let report = BatchReport(sessionName: "s", mapName: "m", mode: "single-shot", outcomes: outcomes, summary: s)
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("arcloud-report-\(UUID())")
        defer { try? FileManager.default.removeItem(at: dir) }
        try report.write(to: dir)
        let json = try Data(contentsOf: dir.appendingPathComponent(BatchReport.File.summary))
        #expect(try JSONDecoder().decode(AccuracySummary.self, from: json) == s)
        #expect(String(decoding: json, as: UTF8.self).contains("sceneScaleShare"))
        let html = try String(contentsOf: dir.appendingPathComponent(BatchReport.File.report), encoding: .utf8)
        #expect(html.contains("within (2 % of scene scale, 2°)"))
    }

    @Test func sessionsWithoutGroundTruthReportNoAccuracy() {
        let s = AccuracySummary(outcomes: [outcome(0, error: 0.01, truth: false)], wallSeconds: 1)
        #expect(s.framesWithGroundTruth == 0 && s.medianTranslationError == nil)
        #expect(s.text.contains("accuracy not measured"))
    }

    @Test func reportFilesHoldTheSummaryNumbers() throws {
        let outcomes = (0..<10).map { outcome($0, error: $0 == 9 ? nil : 0.002 * Double($0)) }
        let summary = AccuracySummary(outcomes: outcomes, wallSeconds: 1)
        let report = BatchReport(sessionName: "s", mapName: "m", mode: "single-shot", outcomes: outcomes, summary: summary)
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("arcloud-report-\(UUID())")
        defer { try? FileManager.default.removeItem(at: dir) }
        try report.write(to: dir)
        let html = try String(contentsOf: dir.appendingPathComponent(BatchReport.File.report), encoding: .utf8)
        #expect(html.contains(escape(summary.text)))
        #expect(html.contains("<svg"))
        let lines = try String(contentsOf: dir.appendingPathComponent(BatchReport.File.trajectory), encoding: .utf8)
            .split(separator: "\n").compactMap { Pose.parseTUM($0) }
        #expect(lines.count == 9)
        let decoded = try JSONDecoder().decode(AccuracySummary.self,
                                               from: Data(contentsOf: dir.appendingPathComponent(BatchReport.File.summary)))
        #expect(decoded == summary)
        let jsonl = try String(contentsOf: dir.appendingPathComponent(BatchReport.File.results), encoding: .utf8)
        #expect(jsonl.split(separator: "\n").count == 10)
    }

    private func escape(_ s: String) -> String {
        s.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}
