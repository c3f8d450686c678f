import Testing
import Foundation
import Geometry
import Evaluation
import VPSModel

/// `arcloud localize` on the shipped map and query session, as the README's main job runs it.
@Suite struct LocalizeCommandTests {
    @Test func writesResultsTrajectorySummaryAndReport() throws {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("arcloud-localize-\(UUID())")
        defer { try? FileManager.default.removeItem(at: out) }
        let r = try ArcloudProcess.run(["localize", "--map", "Maps/gallery.vpsmap", "Datasets/gallery-query-walk",
                                        "--out", out.path])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("within (5 cm, 2°)"))

        let summary = try JSONDecoder().decode(AccuracySummary.self,
                                               from: Data(contentsOf: out.appendingPathComponent(BatchReport.File.summary)))
        #expect(summary.frames == 70)
        #expect(summary.recall[0].fraction >= 0.95)
        // The terminal summary and the report carry the same figures.
        let rate = String(format: "success rate %.1f %%", summary.successRate * 100)
        #expect(r.stdout.contains(rate))
        let html = try String(contentsOf: out.appendingPathComponent(BatchReport.File.report), encoding: .utf8)
        #expect(html.contains(rate))
        #expect(html.contains("<svg"))

        // The TUM trajectory reads back: one pose per localized frame, matching results.jsonl.
        let tum = try String(contentsOf: out.appendingPathComponent(BatchReport.File.trajectory), encoding: .utf8)
            .split(separator: "\n").compactMap { Pose.parseTUM($0) }
        #expect(tum.count == summary.localized)
        let lines = try String(contentsOf: out.appendingPathComponent(BatchReport.File.results), encoding: .utf8)
            .split(separator: "\n")
        let outcomes = try lines.map { try JSONDecoder().decode(FrameOutcome.self, from: Data($0.utf8)) }
        #expect(outcomes.count == 70)
        let localized = outcomes.filter { $0.result.isLocalized }
        for (o, t) in zip(localized, tum) {
            #expect(abs(o.timestamp - t.timestamp) < 1e-6)
            #expect(o.result.pose!.error(to: t.pose).translation < 1e-6)
        }
    }

    @Test func missingMapIsAOneLineFailure() throws {
        let r = try ArcloudProcess.run(["localize", "--map", "Maps/no-such.vpsmap", "Datasets/gallery-query-walk"])
        #expect(r.status == 1)
        #expect(r.stderr.split(separator: "\n").count == 1)
        let usage = try ArcloudProcess.run(["localize", "Datasets/gallery-query-walk"])
        #expect(usage.status == 2)
        #expect(usage.stderr.contains("--map"))
    }
}
