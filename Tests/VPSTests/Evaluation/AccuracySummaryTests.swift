import Testing
import Foundation
import Geometry
import VPS

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
