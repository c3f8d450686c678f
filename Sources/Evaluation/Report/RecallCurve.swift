import Foundation
import VPSModel

/// Recall against the translation threshold, one curve per rotation bound: the standard
/// plot of visual localization (the share of query images placed within a distance, for
/// a fixed angle). Frames that failed, or whose pose is off by more than the angle, count
/// as misses at every distance; frames without ground truth are left out.
struct RecallCurve {
    var outcomes: FrameOutcomes
    var thresholds: ReportThresholds
    var unit: ReportMap.LengthUnit

    /// The curve for rotation bound `degrees`: steps `(translation threshold, recall)`,
    /// recall in 0…1, one step per frame that enters, in increasing threshold. Recall is
    /// constant between steps and zero below the first.
    static func steps<Outcomes: Sequence<FrameOutcome>>(_ outcomes: Outcomes,
                                                        degrees: Double) -> [(threshold: Double, recall: Double)] {
        var scored = 0, within: [Double] = []
        for o in outcomes where o.groundTruth != nil {
            scored += 1
            if let e = o.error, e.rotationDegrees <= degrees { within.append(e.translation) }
        }
        guard scored > 0 else { return [] }
        return within.sorted().enumerated().map { i, t in (t, Double(i + 1) / Double(scored)) }
    }

    /// Recall at `threshold` on a curve made by `steps`.
    static func recall(at threshold: Double, on steps: [(threshold: Double, recall: Double)]) -> Double {
        steps.last { $0.threshold <= threshold }?.recall ?? 0
    }

    func plot() -> String {
        let degrees = Array(Set(thresholds.levels.map(\.degrees))).sorted()
        let curves = degrees.map { RecallCurve.steps(outcomes, degrees: $0) }
        let largest = (curves.flatMap { $0.map(\.threshold) } + thresholds.levels.map(\.translation)).max() ?? 1
        let d = LengthDisplay.forLengths(upTo: largest, unit: unit)
        let positive = curves.flatMap { $0.map(\.threshold) }.filter { $0 > 0 } + thresholds.levels.map(\.translation)
        let lo = (positive.min() ?? 0.01) * d.factor, hi = largest * d.factor * 1.25  // the last ring clear of the frame
        let x = AxisScale.logarithmic(lo, hi)
        // A little room above 100 %, so a curve that reaches it is not cut in half by the frame.
        var percent = AxisScale.linear(0, 100, about: 6)
        percent.upper = 104
        var frame = PlotFrame(height: 380, x: x, y: percent,
                              xTitle: "translation threshold (\(d.unit), log scale)",
                              yTitle: "frames within the threshold (%)")
        var marks = ""
        for t in thresholds.levels {
            let px = frame.point(t.translation * d.factor, 0).x
            marks += "<line x1=\"\(svgNumber(px))\" y1=\"\(svgNumber(frame.margin.top))\" x2=\"\(svgNumber(px))\" "
                + "y2=\"\(svgNumber(frame.height - frame.margin.bottom))\" stroke=\"#999\" stroke-dasharray=\"5 4\"/>"
        }
        let palette = ["#1a9641", "#2b7bba", "#7b3294", "#e66101"]
        var legend: [PlotFrame.LegendEntry] = []
        // Widest first: where curves coincide (every frame well within every angle) each
        // still shows as a band around the next.
        for k in curves.indices.reversed() {
            let color = palette[k % palette.count]
            // A step line: flat at each recall until the next frame enters.
            var pts: [SIMD2<Double>] = [frame.point(x.lower, 0)]
            var last = 0.0
            for s in curves[k] {
                let v = max(s.threshold * d.factor, x.lower)
                pts.append(frame.point(v, last * 100)); pts.append(frame.point(v, s.recall * 100))
                last = s.recall
            }
            pts.append(frame.point(x.upper, last * 100))
            let strokeWidth = 2 + 2.6 * Double(k)
            marks += "<polyline class=\"recall\" fill=\"none\" stroke=\"\(color)\" stroke-width=\"\(svgNumber(strokeWidth))\" "
                + "stroke-linejoin=\"round\" points=\"" + pts.map { "\(svgNumber($0.x)),\(svgNumber($0.y))" }.joined(separator: " ") + "\"/>\n"
        }
        for k in curves.indices {
            legend.append(.init(color: palette[k % palette.count], label: "rotation within \(String(format: "%g", degrees[k]))°", shape: .line))
        }
        // The summary's own operating points: a ring on their curve, the value in the legend.
        for (i, t) in thresholds.levels.enumerated() {
            guard let k = degrees.firstIndex(of: t.degrees) else { continue }
            let r = RecallCurve.recall(at: t.translation, on: curves[k])
            let p = frame.point(t.translation * d.factor, r * 100)
            marks += "<circle cx=\"\(svgNumber(p.x))\" cy=\"\(svgNumber(p.y))\" r=\"5.5\" fill=\"white\" stroke=\"\(palette[k % palette.count])\" stroke-width=\"2.2\"/>"
            legend.append(.init(color: palette[k % palette.count],
                                label: thresholds.label(i, unit: unit) + String(format: ": %.1f %%", r * 100), shape: .ring))
        }
        frame.legend = legend
        return frame.svg(marks, id: "recall-curve")
    }
}

extension RecallCurve {
    init(outcomes: [FrameOutcome], thresholds: ReportThresholds, unit: ReportMap.LengthUnit) {
        self.init(outcomes: FrameOutcomes(outcomes), thresholds: thresholds, unit: unit)
    }
}
