@testable import Localization
import Testing
import Foundation
import Geometry
import Vision
@testable import Evaluation
import TestSupport
@testable import VPSModel

/// The pieces of the HTML report: round ticks, the recall curve, broken error lines,
/// the sortable table, the top-down basis, and the worst frames' embedded images.
@Suite struct ReportTests {
    // MARK: ticks

    /// A tick is a nice number when it is a whole multiple of a step of 1, 2 or 5 × 10ⁿ.
    private func isNiceStep(_ step: Double) -> Bool {
        let e = log10(step).rounded(.down)
        let m = step / pow(10, e)
        return [1.0, 2, 5, 10].contains { abs(m - $0) < 1e-9 }
    }

    @Test func linearTicksAreRoundNumbersCoveringTheRange() {
        for (lo, hi) in [(0.0, 0.93), (3.7, 47.0), (-2.31, 8.9), (12.62, 13.04), (0, 1234.5), (-0.004, 0.0031)] {
            let a = AxisScale.linear(lo, hi)
            #expect(a.lower <= lo && a.upper >= hi, "\(lo)…\(hi) → \(a.lower)…\(a.upper)")
            #expect(a.ticks.first == a.lower && a.ticks.last == a.upper)
            #expect((4...11).contains(a.ticks.count), "\(lo)…\(hi): \(a.ticks)")
            #expect(isNiceStep(a.step), "step \(a.step)")
            for t in a.ticks { #expect(abs(t / a.step - (t / a.step).rounded()) < 1e-9, "\(t) is not a multiple of \(a.step)") }
        }
        #expect(AxisScale.linear(0, 0.93).ticks == [0, 0.2, 0.4, 0.6, 0.8, 1.0])
        #expect(AxisScale.linear(0, 0.93).ticks.map { AxisScale.linear(0, 0.93).label($0) } == ["0.0", "0.2", "0.4", "0.6", "0.8", "1.0"])
        #expect(AxisScale.linear(3.7, 47).ticks == [0, 10, 20, 30, 40, 50])
        #expect(AxisScale.linear(0, 100, about: 6).ticks == [0, 20, 40, 60, 80, 100])
    }

    @Test func logarithmicTicksSitAtOneTwoFive() {
        let a = AxisScale.logarithmic(0.004, 0.93)
        #expect(a.ticks == [0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1])
        #expect(a.ticks.map(a.label) == ["0.002", "0.005", "0.01", "0.02", "0.05", "0.1", "0.2", "0.5", "1"])
        #expect(abs(a.fraction(a.lower)) < 1e-12 && abs(a.fraction(a.upper) - 1) < 1e-12)
        // Over many decades only the powers of ten stay (and the ends).
        let wide = AxisScale.logarithmic(0.0003, 4000)
        #expect(wide.ticks.count <= 10)
        #expect(wide.ticks.contains(1) && wide.ticks.contains(1000))
    }

    @Test func fixedStepAxesKeepTheirStep() {
        let a = AxisScale.linear(1.3, 9.2, step: 2)
        #expect(a.ticks == [0, 2, 4, 6, 8, 10] && a.lower == 0 && a.upper == 10)
        let exact = AxisScale.linear(1.3, 9.2, step: 2, exactRange: true)
        #expect(exact.ticks == [2, 4, 6, 8] && exact.lower == 1.3 && exact.upper == 9.2)
    }

    // MARK: outcomes

    private func outcome(_ i: Int, error: Double?, degrees: Double = 0.1, truth: Bool = true,
                         reason: String = "no pose: 87 tentative matches") -> FrameOutcome {
        let gt = Pose(rotation: .identity, translation: SIMD3(Double(i) * 0.5, 1.5, Double(i) * 0.2))
        var result = LocalizationResult(status: .rejected, reason: reason)
        if let e = error {
            let turn = Quaternion(axis: SIMD3(0, 1, 0), angle: degrees * .pi / 180)
            result = LocalizationResult(status: .localized,
                                        pose: Pose(rotation: turn, translation: gt.translation + SIMD3(e, 0, 0)),
                                        sectionId: "room-a", inliers: 100, matches: 180, reprojectionError: 1.1)
        }
        result.timings.total = 10 + Double(i)
        return FrameOutcome(frameId: String(format: "%06d", i), image: String(format: "rgb/IMG_%04d.jpg", i),
                            timestamp: 1305031102.5 + Double(i) / 10,
                            result: result, groundTruth: truth ? gt : nil)
    }

    private let thresholds = ReportThresholds(levels: [(0.05, 2), (0.25, 5), (1, 10)])

    // MARK: recall curve

    @Test func recallCurveCountsFailuresAndWrongAnglesAsMisses() {
        let outcomes = [outcome(0, error: 0.01), outcome(1, error: 0.03), outcome(2, error: 0.2),
                        outcome(3, error: nil), outcome(4, error: 0.02, degrees: 3), outcome(5, error: 0.5, truth: false)]
        let within2 = RecallCurve.steps(outcomes, degrees: 2)
        // Five frames have ground truth; the failed one and the one 3° off never enter at 2°.
        #expect(within2.map(\.recall) == [0.2, 0.4, 0.6])
        #expect(RecallCurve.recall(at: 0.05, on: within2) == 0.4)
        #expect(RecallCurve.recall(at: 0.005, on: within2) == 0)
        #expect(RecallCurve.recall(at: 100, on: within2) == 0.6)
        let within5 = RecallCurve.steps(outcomes, degrees: 5)
        #expect(RecallCurve.recall(at: 0.05, on: within5) == 0.6)
        // The curve agrees with the summary's recall at the summary's thresholds.
        let summary = AccuracySummary(outcomes: outcomes, wallSeconds: 1)
        #expect(abs(RecallCurve.recall(at: 0.05, on: within2) - summary.recall[0].fraction) < 1e-12)
        #expect(abs(RecallCurve.recall(at: 0.25, on: within5) - summary.recall[1].fraction) < 1e-12)
        let svg = RecallCurve(outcomes: outcomes, thresholds: thresholds, unit: .metres).plot()
        #expect(svg.contains("rotation within 2°") && svg.contains("rotation within 10°"))
        #expect(svg.contains("(5 cm, 2°): 40.0 %") && svg.contains("(1 m, 10°): 80.0 %"))
    }

    // MARK: error over time

    private func polylines(in svg: String) -> Int { svg.components(separatedBy: "<polyline class=\"run\"").count - 1 }

    @Test func failedFramesBreakTheErrorLineAndAreMarkedWithTheirReason() {
        let outcomes = (0..<10).map { outcome($0, error: [3, 4, 7].contains($0) ? nil : 0.004 * Double($0 + 1),
                                              reason: $0 == 7 ? "gravity disagrees (12°)" : "no pose: 87 tentative matches") }
        let timeline = ErrorTimeline(outcomes: outcomes, thresholds: thresholds, unit: .metres)
        let points = timeline.series { $0.translation }
        #expect(points.map { $0 == nil } == [false, false, false, true, true, false, false, true, false, false])
        // Times are relative to the first frame, whatever the session's clock.
        #expect(abs(points[1]!.x - 0.1) < 1e-6)  // Unix time keeps about 0.1 µs
        let svg = timeline.translationPlot()
        // Runs 0–2, 5–6, 8–9: three separate lines, none across a failure.
        #expect(polylines(in: svg) == 3)
        #expect(svg.contains("frame 000003 at 0.30 s: no pose: 87 tentative matches"))
        #expect(svg.contains("failed: no pose (2)") && svg.contains("failed: gravity disagrees (1)"))
        // Thresholds drawn, in the unit of the axis.
        #expect(svg.contains("translation error (cm, log scale)") && svg.contains("threshold (5 cm, 2°)") && svg.contains("threshold (1 m, 10°)"))
        let rotation = timeline.rotationPlot()
        #expect(rotation.contains("rotation error (°, log scale)") && rotation.contains("threshold (25 cm, 5°)"))
        #expect(FailureReasons.kind(of: "too few inliers (12 < 20)") == "too few inliers")
        #expect(FailureReasons.kind(of: nil) == "not localized")
    }

    // MARK: table

    @Test func frameTableHasARowPerFrameWithSortableValues() {
        let outcomes = [outcome(0, error: 0.012), outcome(1, error: nil), outcome(2, error: 0.3)]
        let html = FrameTable(outcomes: outcomes, unit: .metres).html()
        #expect(html.components(separatedBy: "<tr id=\"frame-").count - 1 == 3)
        #expect(html.contains("<tr id=\"frame-000001\" class=\"failed\">"))
        // Errors shown in cm (the largest is 30 cm) and sortable as numbers.
        #expect(html.contains("translation error (cm)"))
        #expect(html.contains(">1.20</td>") && html.contains("<td data-v=\"1.2"))
        #expect(html.contains("<script>") && html.contains("addEventListener('click'"))
        #expect(html.contains("<th data-column=\"12\""))
        // Each row names the user's image, not only the frame id.
        #expect(html.contains("<td>000001</td><td>rgb/IMG_0001.jpg</td>"))
    }

    @Test func worstFramesAreTheFailedThenTheFarthestOff() {
        var outcomes = (0..<10).map { outcome($0, error: 0.001 * Double($0 + 1)) }
        outcomes[4] = outcome(4, error: nil)
        outcomes[7] = outcome(7, error: 0.02, degrees: 3)   // within 5 cm but 1.5× the primary 2°
        let chosen = WorstFrames.select(outcomes, thresholds: thresholds, count: 4)
        #expect(chosen.map(\.frameId) == ["000004", "000007", "000009", "000008"])
        // Without ground truth, the localized frames with the fewest inliers follow the failed ones.
        var blind = (0..<5).map { outcome($0, error: 0.01, truth: false) }
        blind[2].result.inliers = 30
        #expect(WorstFrames.select(blind, thresholds: thresholds, count: 1).map(\.frameId) == ["000002"])
    }

    @Test func mapsOfTheirOwnScaleShowMapUnits() throws {
        let outcomes = [outcome(0, error: 0.01), outcome(1, error: 0.02)]
        let plot = ErrorTimeline(outcomes: outcomes, thresholds: thresholds, unit: .mapUnits).translationPlot()
        #expect(plot.contains("translation error (map units, log scale)"))
        #expect(ReportThresholds(levels: [(0.02, 2)]).label(0, unit: .mapUnits) == "(0.02 map units, 2°)")
        // The shipped map says metres and +y up, and the report takes both from it.
        let shipped = ReportMap(try #require(PackageDirectory.galleryMap))
        #expect(shipped.lengthUnit == .metres && shipped.up == SIMD3(0, 1, 0))
        #expect(shipped.points.count > 10_000)
    }

    // MARK: top-down

    @Test func topDownLooksDownFromTheMapsUpWithoutMirroring() {
        let b = TopDownView.Basis(up: SIMD3(0, 1, 0), cameras: [])
        #expect(b.right == SIMD3(1, 0, 0) && b.pageUp == SIMD3(0, 0, -1))
        #expect(simd_equal(cross(b.right, b.pageUp), b.up))
        // Up unknown: the axis the cameras vary least along (here z).
        let cams: [SIMD3<Double>] = (0..<20).map { (i: Int) -> SIMD3<Double> in
            let k = Double(i)
            return SIMD3(k, Double(i % 5), 2 + 0.01 * Double(i % 2))
        }
        let guessed = TopDownView.Basis(up: nil, cameras: cams)
        #expect(!guessed.upIsKnown && guessed.up == SIMD3(0, 0, 1))
        let svg = TopDownView(outcomes: [outcome(0, error: 0.01), outcome(1, error: 0.6), outcome(2, error: nil)],
                              map: ReportMap(points: [SIMD3(0, 0, 0), SIMD3(1, 2, 1)],
                                             sections: [MapSection(id: "a", name: "Room A", boundsMin: SIMD3(-1, 0, -1), boundsMax: SIMD3(2, 3, 1))]),
                              thresholds: thresholds).plot()
        #expect(svg.contains("class=\"map-points\"") && svg.contains("Room A"))
        #expect(svg.contains("−z (m)"))
        #expect(svg.contains(ReportThresholds.colors[0]) && svg.contains(ReportThresholds.colors[2]))
    }

    private func simd_equal(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> Bool { length(a - b) < 1e-12 }

    // MARK: the shipped run, with images

    /// A real frame of the shipped walk, localized against the shipped map: its inliers
    /// come with their keypoints, and the report embeds the image with them drawn.
    @Test func worstFramesEmbedTheImageWithTheInliersDrawn() throws {
        let root = PackageDirectory.root
        let map = try #require(PackageDirectory.galleryMap, "Maps/gallery.vpsmap must load")
        let dir = root.appendingPathComponent("Datasets/gallery-query-walk")
        let session = try RecordedSession.load(from: dir)
        let frames = Array(session.frames.prefix(3))
        let localizer = try Localizer(map: map)
        var outcomes: [FrameOutcome] = []
        for f in frames {
            let bytes = try [UInt8](Data(contentsOf: try RecordedSession.imageURL(of: f, in: dir)))
            let r = try localizer.localize(encoded: bytes, intrinsics: session.camera, gravity: f.gravity)
            outcomes.append(FrameOutcome(frameId: f.id, timestamp: f.timestamp, result: r, groundTruth: f.pose))
        }
        let r0 = outcomes[0].result
        #expect(r0.isLocalized && r0.inlierMatches.count == r0.inliers)
        #expect(r0.inlierMatches.allSatisfy { session.camera.contains(SIMD2(Double($0.pixel.x), Double($0.pixel.y))) })
        // The keypoints are not written to results.jsonl.
        let json = try String(decoding: JSONEncoder().encode(r0), as: UTF8.self)
        #expect(!json.contains("inlierMatches") && !json.contains("pixel"))

        let summary = AccuracySummary(outcomes: outcomes, wallSeconds: 1)
        let report = BatchReport(session: RecordedSession(name: session.name, camera: session.camera, frames: frames),
                                 in: dir, map: map, mode: "single-shot", outcomes: outcomes, summary: summary)
        let html = report.html()
        let prefix = "data:image/jpeg;base64,"
        let images = html.components(separatedBy: prefix).dropFirst()
        #expect(images.count == 3)
        let b64 = String(try #require(images.first).prefix { $0 != "\"" })
        let jpeg = try GrayImage(decoding: [UInt8](try #require(Data(base64Encoded: b64))))
        #expect(jpeg.width == 640 && jpeg.height == 480)
        #expect(html.components(separatedBy: "stroke=\"#33ff66\"").count - 1
                == outcomes.map(\.result.inlierMatches.count).reduce(0, +))
        // With ground truth, each inlier leads to its point's true projection: a right pose
        // keeps those lines short.
        #expect(html.contains("stroke=\"#ff7f00\""))
        #expect(html.contains("class=\"map-points\""))
    }
}
