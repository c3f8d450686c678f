import Foundation
import Geometry
import Testing
import Evaluation
import VPSModel

/// `poses.txt`, the `--min-recall` gate and `compare`'s per-frame changes.
@Suite struct StandardResultsTests {
    /// A frame localized with `error` metres of x offset (nil: rejected), ground truth at x = i.
    static func outcome(_ id: String, _ i: Int, error: Double?, degrees: Double = 0, truth: Bool = true) -> FrameOutcome {
        let gt = Pose(rotation: Quaternion(axis: SIMD3(0, 1, 0), angle: Double(i) * 0.1), translation: SIMD3(Double(i), 1, 2))
        var result = LocalizationResult(status: .rejected, reason: "too few inliers")
        if let e = error {
            let pose = Pose(rotation: gt.rotation * Quaternion(axis: SIMD3(1, 0, 0), angle: degrees * .pi / 180),
                            translation: gt.translation + SIMD3(e, 0, 0))
            result = LocalizationResult(status: .localized, pose: pose, sectionId: "a", inliers: 100)
        }
        return FrameOutcome(frameId: id, image: "frames/\(id).jpg", timestamp: 1_305_031_102.175304 + Double(i) / 30,
                            result: result, groundTruth: truth ? gt : nil)
    }

    @Test func posesFileIsWorldToCameraPerLocalizedImage() throws {
        let outcomes = [Self.outcome("IMG_0001", 0, error: 0.01), Self.outcome("IMG_0002", 1, error: nil),
                        Self.outcome("IMG_0003", 2, error: 0.02, degrees: 1)]
        let lines = BenchmarkPoses.text(outcomes).split(separator: "\n")
        #expect(lines.count == 2)
        for (line, o) in zip(lines, [outcomes[0], outcomes[2]]) {
            let f = line.split(separator: " ")
            #expect(f.count == 8)
            #expect(f[0] == "\(o.frameId).jpg")
            let v = f.dropFirst().compactMap { Double($0) }
            let worldToCamera = Pose(rotation: Quaternion(x: v[1], y: v[2], z: v[3], w: v[0]), translation: SIMD3(v[4], v[5], v[6]))
            // Its inverse is the camera pose arcloud reports, exactly (shortest round-trip numbers).
            let e = worldToCamera.inverse.error(to: o.result.pose!)
            #expect(e.translation < 1e-12 && e.rotationDegrees < 1e-9)
        }
        // Runs written before images were named fall back to the frame id.
        var old = outcomes[0]
        old.image = nil
        #expect(BenchmarkPoses.text([old]).hasPrefix("IMG_0001 "))
    }

    @Test func recallGateUsesThePrimaryThresholdOrTheLocalizedShare() {
        let withTruth = [Self.outcome("a", 0, error: 0.01), Self.outcome("b", 1, error: 0.2), Self.outcome("c", 2, error: nil),
                         Self.outcome("d", 3, error: 0.03)]
        let s = AccuracySummary(outcomes: withTruth, wallSeconds: 1)
        #expect(RecallGate.measured(s).share == 0.5)
        #expect(RecallGate(minimum: 0.5).failure(s) == nil)
        #expect(RecallGate(minimum: 0.6).failure(s) == "recall 50 % of frames within (5 cm, 2°) is below --min-recall 0.6 (60 %)")
        let noTruth = withTruth.map { o -> FrameOutcome in var o = o; o.groundTruth = nil; return o }
        let n = AccuracySummary(outcomes: noTruth, wallSeconds: 1)
        #expect(RecallGate.measured(n).share == 0.75)
        #expect(RecallGate(minimum: 0.8).failure(n)?.contains("frames localized (no ground truth)") == true)
        #expect(RecallGate(minimum: 0).failure(AccuracySummary(outcomes: [], wallSeconds: 0)) == nil)
    }

    @Test func comparisonNamesEachChangedFrame() {
        let a = [Self.outcome("f0", 0, error: 0.01), Self.outcome("f1", 1, error: 0.01), Self.outcome("f2", 2, error: nil),
                 Self.outcome("f3", 3, error: 0.01), Self.outcome("f4", 4, error: 0.30), Self.outcome("f5", 5, error: 0.01),
                 Self.outcome("gone", 6, error: 0.01)]
        let b = [Self.outcome("f0", 0, error: 0.02), Self.outcome("f1", 1, error: nil), Self.outcome("f2", 2, error: 0.01),
                 Self.outcome("f3", 3, error: 0.01, degrees: 3), Self.outcome("f4", 4, error: 0.02), Self.outcome("f5", 5, error: 0.049),
                 Self.outcome("new", 7, error: 0.01)]
        let c = RunComparison(a, b)
        #expect(c.changes.map(\.frameId) == ["f1", "f2", "f3", "f4"])
        #expect(c.changes.map(\.change) == [.newlyLost, .newlyFound, .worse, .better])
        #expect(c.regressions == 2)
        #expect(c.common == 6 && c.onlyInA == ["gone"] && c.onlyInB == ["new"])
        #expect(c.localizedA == 5 && c.localizedB == 5)
        #expect(c.summaryLine.contains("1 newly lost, 1 newly found, 1 worse, 1 better, 0 moved"))
        #expect(c.summaryLine.contains("within (5 cm, 2°) 66.7 % → 66.7 %"))
        #expect(c.frameLines[0].hasPrefix("f1") && c.frameLines[0].contains("1.00 cm, 0.00° → rejected (too few inliers)"))
        // A looser threshold hides the 3° change; a tighter one sees f0's 1 cm.
        #expect(RunComparison(a, b, threshold: .init(metres: 0.05, degrees: 5)).regressions == 1)
        #expect(RunComparison(a, b, threshold: .init(metres: 0.005, degrees: 2)).count(.worse) == 3)

        // Without ground truth a pose that moves is reported, not counted as a regression.
        let strip = { (o: FrameOutcome) -> FrameOutcome in var o = o; o.groundTruth = nil; return o }
        let moved = RunComparison(a.map(strip), b.map(strip))
        #expect(moved.changes.filter { $0.change == .moved }.map(\.frameId) == ["f3", "f4"])   // 3°, 28 cm; f0 1 cm, f5 3.9 cm
        #expect(moved.regressions == 1)   // f1, newly lost
    }
}
