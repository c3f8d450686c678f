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
        // Nothing stays per frame in memory, and the scratch files left no trace in the folder.
        let left = try FileManager.default.contentsOfDirectory(atPath: dir.appendingPathComponent("streamed").path)
        #expect(Set(left) == Set([F.results, F.trajectory, F.poses, F.groundTruth, F.geoJSON, F.summary, F.report]))
    }

    /// A record read back is the outcome written, in every field the summary and the report read.
    @Test func aFrameRecordReadBackIsTheOutcomeWritten() throws {
        var text: [String] = []
        for (i, o) in Self.outcomes(200).enumerated() {
            let record = FrameRecord(o) { s, _ in
                text.append(s)
                return FrameRecord.TextRef(offset: UInt64(text.count - 1), length: Int64(s.utf8.count))
            }
            var bytes = [UInt8](repeating: 0xAA, count: FrameRecord.size)
            bytes.withUnsafeMutableBytes { record.write(into: $0) }
            let back = bytes.withUnsafeBytes { FrameRecord(from: $0) }.outcome { text[Int($0.offset)] }
            var expected = o
            expected.result.evidence = nil; expected.result.inlierMatches = []
            #expect(back == expected, "frame \(i)")
        }
    }

    /// Out of order by more than the waiting lines hold, in the worst order there is (last
    /// frame first), with reasons that never repeat: the lines come out in frame order and
    /// the outcomes read back equal, strings that were not shared included.
    @Test func reversedOrderAndUnsharedReasonsComeBackEqual() throws {
        let all = Self.outcomes(2 * BatchRecorder.maxWaiting + 7).enumerated().map { i, o in
            var o = o
            if !o.result.isLocalized { o.result.reason = "cannot read frames/\(i).jpg" }
            return o
        }
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("arcloud-recorder-\(UUID())")
        defer { try? FileManager.default.removeItem(at: dir) }
        let (recorded, _) = try BatchRecorder.record(frameCount: all.count, into: dir, retention: nil) { record in
            for i in all.indices.reversed() { record(i, all[i]) }
            return 1
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let expectedLines = try all.map { String(decoding: try encoder.encode($0), as: UTF8.self) }
        let lines = try String(contentsOf: dir.appendingPathComponent(BatchReport.File.results), encoding: .utf8)
            .split(separator: "\n").map(String.init)
        #expect(lines == expectedLines)
        #expect(recorded.count == all.count)
        for (i, o) in recorded.enumerated() {
            var expected = all[i]
            expected.result.evidence = nil; expected.result.inlierMatches = []
            #expect(o == expected, "frame \(i)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == [BatchReport.File.results])
    }

    /// A frame recorded twice or never, or out of the run, is an error when the run ends, not a crash.
    @Test func aFrameNeverRecordedIsAnError() throws {
        let all = Self.outcomes(10)
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("arcloud-recorder-\(UUID())")
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(throws: (any Error).self) {
            _ = try BatchRecorder.record(frameCount: all.count, into: dir, retention: nil) { record in
                for i in all.indices.dropFirst() { record(i, all[i]) }
                return 1
            }
        }
        #expect(throws: (any Error).self) {
            _ = try BatchRecorder.record(frameCount: all.count, into: dir, retention: nil) { record in
                for i in all.indices { record(i, all[i]) }
                record(all.count, all[0])
                return 1
            }
        }
    }
}
