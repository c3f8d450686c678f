import Foundation
import Geodesy
import Geometry
import Support
import Testing
import VPSModel
@testable import Evaluation

/// The report's parts that a long run writes a frame at a time (or picks from, keeping a
/// few) give what the whole-array forms they replace gave.
@Suite struct StreamedReportPartsTests {
    /// The GeoJSON written a feature at a time is the collection serialized at once, in time
    /// order, for frames in order and out of it.
    @Test(arguments: [false, true])
    func geoJSONIsTheWholeCollectionSerializedAtOnce(shuffled: Bool) throws {
        var all = BatchRecorderTests.outcomes(300)
        if shuffled { all.swapAt(11, 291); all.swapAt(21, 31) }
        let placed = all.filter { $0.result.geoPose != nil }.sorted { $0.timestamp < $1.timestamp }
        func coordinate(_ o: FrameOutcome) -> [Double] { [o.result.geoPose!.position.longitude, o.result.geoPose!.position.latitude] }
        var features: [[String: Any]] = [["type": "Feature", "properties": ["kind": "path", "frames": placed.count],
                                          "geometry": ["type": "LineString", "coordinates": placed.map(coordinate)]]]
        for o in placed {
            let g = o.result.geoPose!
            var properties: [String: Any] = ["kind": "frame", "frameId": o.frameId, "timestamp": o.timestamp,
                                             "height": g.position.height,
                                             "quaternion": [g.quaternion.x, g.quaternion.y, g.quaternion.z, g.quaternion.w]]
            if let a = o.result.geoAccuracy {
                properties["accuracy"] = a.position
                properties["rotationAccuracyDegrees"] = a.rotationDegrees
            }
            features.append(["type": "Feature", "properties": properties, "geometry": ["type": "Point", "coordinates": coordinate(o)]])
        }
        let whole = try JSONSerialization.data(withJSONObject: ["type": "FeatureCollection", "features": features] as [String: Any],
                                               options: [.sortedKeys])
        #expect(placed.count > 20)
        #expect(TrajectoryGeoJSON.document(all) == whole)
        #expect(TrajectoryGeoJSON.document(Array(all.prefix(1))) == nil)
    }

    /// The worst frames kept as they go by are those a sort of every frame picks, ties included.
    @Test func worstFramesAreThoseASortOfEveryFramePicks() {
        for seed in 0..<20 {
            var rng = SplitMix64(seed: UInt64(seed))
            let all = (0..<200).map { i -> FrameOutcome in
                let truth = Pose(rotation: .identity, translation: SIMD3(Double(i), 0, 0))
                let localized = rng.next() % 9 != 0
                // Few distinct errors and inlier counts, so that ties are many.
                let off = Double(rng.next() % 4) * 0.05
                var r = LocalizationResult(status: localized ? .localized : .rejected,
                                           pose: localized ? Pose(rotation: .identity, translation: truth.translation + SIMD3(off, 0, 0)) : nil,
                                           inliers: Int(rng.next() % 3) * 10 + 20)
                r.reason = localized ? nil : "no pose"
                return FrameOutcome(frameId: "\(i)", timestamp: Double(i), result: r, groundTruth: rng.next() % 3 == 0 ? nil : truth)
            }
            let thresholds = ReportThresholds(levels: [(0.05, 2)])
            // The selection as a sort of every frame made it.
            let failed = Array(all.filter { !$0.result.isLocalized }.prefix(WorstFrames.maxFailedShown))
            let scored = all.indices.compactMap { i in all[i].error.map { (i, max($0.translation / 0.05, $0.rotationDegrees / 2)) } }
                .sorted { $0.1 > $1.1 }.map(\.0)
            let unscored = all.indices.filter { all[$0].error == nil && all[$0].result.isLocalized }
                .map { ($0, all[$0].result.inliers) }.sorted { $0.1 < $1.1 }.map(\.0)
            let expected = failed + (scored + unscored).prefix(WorstFrames.shown - failed.count).map { all[$0] }
            #expect(WorstFrames.select(all, thresholds: thresholds).map(\.frameId) == expected.map(\.frameId), "seed \(seed)")
        }
    }

    /// A polyline written a part at a time is the one written whole: runs broken at gaps,
    /// one point a dot, a run longer than a part split across parts but not across elements.
    @Test func brokenPolylinesAreWrittenAsTheyWereWhole() {
        let frame = PlotFrame(x: AxisScale.linear(0, 100_000), y: AxisScale.linear(0, 10), xTitle: "x", yTitle: "y")
        let head: [SIMD2<Double>?] = [nil, SIMD2(1, 1), nil, SIMD2(2, 2), SIMD2(3, 3), nil, nil]
        let long: [SIMD2<Double>?] = (0..<20_000).map { SIMD2(Double($0), Double($0 % 10)) }
        let tail: [SIMD2<Double>?] = [nil, SIMD2(5, 5)]
        let points = head + long + tail
        var parts: [String] = []
        frame.brokenPolyline(points, color: "#123") { parts.append($0) }
        #expect(parts.count > 4)
        // What the whole-run form wrote: each run held, then written as one element.
        var expected = "", run: [SIMD2<Double>] = []
        func flush() {
            if run.count == 1 {
                let q = frame.point(run[0].x, run[0].y)
                expected += "<circle cx=\"\(svgNumber(q.x))\" cy=\"\(svgNumber(q.y))\" r=\"2.5\" fill=\"#123\"/>\n"
            } else if run.count > 1 {
                expected += "<polyline class=\"run\" fill=\"none\" stroke=\"#123\" stroke-width=\"1.8\" points=\""
                    + run.map { let q = frame.point($0.x, $0.y); return "\(svgNumber(q.x)),\(svgNumber(q.y))" }.joined(separator: " ")
                    + "\"/>\n"
            }
            run = []
        }
        for p in points { if let p { run.append(p) } else { flush() } }
        flush()
        #expect(parts.joined() == expected)
    }
}

