import Foundation
import Geodesy
import Geometry
import Testing
import VPSModel
@testable import Evaluation

/// A long run's outcomes go to `results.jsonl` as they come, and only a few numbers a
/// frame stay (`BatchRecorder`): the files, the summary and the report are those of the
/// outcomes held whole.
@Suite struct BatchRecorderTests {
    /// Outcomes of every kind (`WorstFrameRetentionTests.outcomes`), with what a real run
    /// adds: images, sections, claims, evidence, reasons, a GeoPose now and then.
    static func outcomes(_ n: Int) -> [FrameOutcome] {
        WorstFrameRetentionTests.outcomes(n).enumerated().map { i, o in
            var o = o
            o.image = "frames/\(String(format: "%06d", i)).jpg"
            o.result.timings.decode = Double(i % 7); o.result.timings.total = Double(i % 13) + 0.5
            o.result.evidence = PoseEvidence(log10NFA: -Double(i % 30), rotationSigmaDegrees: 0.1, positionSigma: 0.01)
            if o.result.isLocalized {
                o.result.sectionId = "room-\(i % 3)"
                o.result.accuracy = PoseAccuracy(position: 0.02 * Double(1 + i % 4), rotationDegrees: 0.5)
                o.result.reprojectionError = 1.25
                if i % 10 == 1 {
                    o.result.geoPose = GeoPose(position: GeodeticPosition(latitude: 48 + 1e-6 * Double(i), longitude: 11, height: 520),
                                               quaternion: .identity)
                    o.result.geoAccuracy = PoseAccuracy(position: 0.5, rotationDegrees: 1)
                }
            } else {
                o.result.reason = "too few inliers (\(i % 4) < 20)"
            }
            return o
        }
    }

    static func session(of outcomes: [FrameOutcome]) -> RecordedSession {
        RecordedSession(name: "long", camera: CameraIntrinsics(width: 640, height: 480, fx: 500, fy: 500, cx: 320, cy: 240),
                        frames: outcomes.map { RecordedSession.Frame(id: $0.frameId, timestamp: $0.timestamp, image: $0.image!,
                                                                     pose: $0.groundTruth) })
    }

    @Test func writesWhatTheWholeOutcomesWouldAndKeepsAFewNumbersAFrame() throws {
        let all = Self.outcomes(3 * BatchRecorder.maxWaiting)
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("arcloud-recorder-\(UUID())")
        defer { try? FileManager.default.removeItem(at: dir) }
        let primary = ErrorThreshold(metres: 0.05, degrees: 2)
        // Tracking mode's order: the later stretch first, so more lines wait than fit in memory.
        let half = all.count / 2
        let (recorded, seconds) = try BatchRecorder.record(Self.session(of: all), into: dir.appendingPathComponent("streamed"),
                                                           retention: WorstFrameRetention(primary: primary)) { record in
            for i in Array(half..<all.count) + Array(0..<half) { record(i, all[i]) }
            return 2
        }
        #expect(seconds == 2 && recorded.count == all.count)

        for (i, o) in recorded.enumerated() {
            var expected = all[i]
            if o.result.inlierMatches.isEmpty {
                // Not among the frames the report can show: what neither summary nor report reads is gone.
                expected.result.evidence = nil; expected.result.inlierMatches = []
            }
            #expect(o == expected, "frame \(i)")
        }
        let summary = AccuracySummary(outcomes: all, wallSeconds: 2, thresholds: [primary])
        #expect(AccuracySummary(outcomes: recorded, wallSeconds: 2, thresholds: [primary]) == summary)
        let whole = BatchReport(sessionName: "long", mapName: "m", mode: "tracking", outcomes: all, summary: summary)
        let streamed = BatchReport(sessionName: "long", mapName: "m", mode: "tracking", outcomes: recorded, summary: summary)
        try whole.write(to: dir.appendingPathComponent("whole"))
        try streamed.write(to: dir.appendingPathComponent("streamed"), results: false)
        typealias F = BatchReport.File
        for file in [F.results, F.trajectory, F.poses, F.groundTruth, F.geoJSON, F.summary, F.report] {
            let a = try Data(contentsOf: dir.appendingPathComponent("whole").appendingPathComponent(file))
            let b = try Data(contentsOf: dir.appendingPathComponent("streamed").appendingPathComponent(file))
            #expect(a == b, "\(file) differs")
        }
        // What stays per frame: one record of a few numbers (the strings are kept once each).
        #expect(MemoryLayout<BatchRecorder.Record>.stride <= 200, "\(MemoryLayout<BatchRecorder.Record>.stride) bytes")
    }
}
