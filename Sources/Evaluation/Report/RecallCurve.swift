import Foundation
import Support
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

    func plot() -> String { gathered(write) }

    /// `plot()` handed to `out` a part at a time. One pass gathers each curve's translation
    /// errors in a `SpilledSort` (their count within each threshold, their least and greatest
    /// as they come); each curve's steps are then drawn as the sort gives them back: a long
    /// run's curve is never held, as values or as text.
    func write(_ out: (String) -> Void) {
        let degrees = Array(Set(thresholds.levels.map(\.degrees))).sorted()
        let curves = degrees.map { _ in SpilledSort() }
        var scored = 0, greatest: Double?, leastPositive: Double?
        // Per threshold: the frames within it on its own rotation bound's curve.
        var withinLevel = [Int](repeating: 0, count: thresholds.levels.count)
        for o in outcomes where o.groundTruth != nil {
            scored += 1
            guard let e = o.error else { continue }
            for (k, bound) in degrees.enumerated() where e.rotationDegrees <= bound {
                curves[k].append(e.translation)
                if greatest.map({ e.translation > $0 }) ?? true { greatest = e.translation }
                if e.translation > 0, leastPositive.map({ e.translation < $0 }) ?? true { leastPositive = e.translation }
            }
            for (i, t) in thresholds.levels.enumerated() where e.rotationDegrees <= t.degrees && e.translation <= t.translation {
                withinLevel[i] += 1
            }
        }
        let levels = thresholds.levels.map(\.translation)
        let largest = ((greatest.map { [$0] } ?? []) + levels).max() ?? 1
        let d = LengthDisplay.forLengths(upTo: largest, unit: unit)
        let positive = (leastPositive.map { [$0] } ?? []) + levels
        let lo = (positive.min() ?? 0.01) * d.factor, hi = largest * d.factor * 1.25  // the last ring clear of the frame
        let x = AxisScale.logarithmic(lo, hi)
        // A little room above 100 %, so a curve that reaches it is not cut in half by the frame.
        var percent = AxisScale.linear(0, 100, about: 6)
        percent.upper = 104
        var frame = PlotFrame(height: 380, x: x, y: percent,
                              xTitle: "translation threshold (\(d.unit), log scale)",
                              yTitle: "frames within the threshold (%)")
        let palette = ["#1a9641", "#2b7bba", "#7b3294", "#e66101"]
        var legend: [PlotFrame.LegendEntry] = []
        for k in curves.indices {
            legend.append(.init(color: palette[k % palette.count], label: "rotation within \(String(format: "%g", degrees[k]))°", shape: .line))
        }
        // The summary's own operating points: a ring on their curve, the value in the legend.
        var rings = ""
        for (i, t) in thresholds.levels.enumerated() {
            guard let k = degrees.firstIndex(of: t.degrees) else { continue }
            let r = withinLevel[i] > 0 ? Double(withinLevel[i]) / Double(scored) : 0
            let p = frame.point(t.translation * d.factor, r * 100)
            rings += "<circle cx=\"\(svgNumber(p.x))\" cy=\"\(svgNumber(p.y))\" r=\"5.5\" fill=\"white\" stroke=\"\(palette[k % palette.count])\" stroke-width=\"2.2\"/>"
            legend.append(.init(color: palette[k % palette.count],
                                label: thresholds.label(i, unit: unit) + String(format: ": %.1f %%", r * 100), shape: .ring))
        }
        frame.legend = legend
        frame.write(id: "recall-curve", to: out) { marks in
            var lines = ""
            for t in thresholds.levels {
                let px = frame.point(t.translation * d.factor, 0).x
                lines += "<line x1=\"\(svgNumber(px))\" y1=\"\(svgNumber(frame.margin.top))\" x2=\"\(svgNumber(px))\" "
                    + "y2=\"\(svgNumber(frame.height - frame.margin.bottom))\" stroke=\"#999\" stroke-dasharray=\"5 4\"/>"
            }
            marks(lines)
            // Widest first: where curves coincide (every frame well within every angle) each
            // still shows as a band around the next.
            for k in curves.indices.reversed() {
                let color = palette[k % palette.count]
                // A step line: flat at each recall until the next frame enters.
                var text = "<polyline class=\"recall\" fill=\"none\" stroke=\"\(color)\" stroke-width=\"\(svgNumber(2 + 2.6 * Double(k)))\" "
                    + "stroke-linejoin=\"round\" points=\""
                func add(_ p: SIMD2<Double>, first: Bool = false) {
                    text += (first ? "" : " ") + "\(svgNumber(p.x)),\(svgNumber(p.y))"
                    if text.utf8.count >= 1 << 16 { marks(text); text = "" }
                }
                add(frame.point(x.lower, 0), first: true)
                var last = 0.0, entered = 0
                curves[k].forEachAscending { t in
                    entered += 1
                    let recall = Double(entered) / Double(scored)
                    let v = max(t * d.factor, x.lower)
                    add(frame.point(v, last * 100)); add(frame.point(v, recall * 100))
                    last = recall
                }
                add(frame.point(x.upper, last * 100))
                marks(text + "\"/>\n")
            }
            marks(rings)
        }
    }
}

extension RecallCurve {
    init(outcomes: [FrameOutcome], thresholds: ReportThresholds, unit: ReportMap.LengthUnit) {
        self.init(outcomes: FrameOutcomes(outcomes), thresholds: thresholds, unit: unit)
    }
}
