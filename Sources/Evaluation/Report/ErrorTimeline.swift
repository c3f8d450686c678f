import Foundation
import VPSModel

/// Translation and rotation error over the session's time, each on its own axis with the
/// threshold lines; failed frames marked with their reason where the line breaks.
///
/// The axes are logarithmic: errors of one session span from a millimetre to metres (a
/// wrong pose), and every threshold line must stay readable beside them.
struct ErrorTimeline {
    var outcomes: FrameOutcomes
    var thresholds: ReportThresholds
    var unit: ReportMap.LengthUnit

    /// Seconds since the first frame (sessions may carry absolute clocks, e.g. Unix time),
    /// made as they are read: a long run's are never held.
    var times: LazyMapCollection<FrameOutcomes, Double> {
        let t0 = outcomes.first?.timestamp ?? 0
        return outcomes.lazy.map { $0.timestamp - t0 }
    }

    /// Points of one error series, nil where the frame has no error to show (failed, or no
    /// ground truth): the plotted line breaks there. Made as they are read.
    func series(_ value: @escaping ((translation: Double, rotationDegrees: Double)) -> Double)
        -> LazyMapCollection<FrameOutcomes, SIMD2<Double>?> {
        let t0 = outcomes.first?.timestamp ?? 0
        return outcomes.lazy.map { o in o.error.map { SIMD2(o.timestamp - t0, max(value($0), 0)) } }
    }

    var translationDisplay: LengthDisplay {
        let largestError = outcomes.lazy.compactMap { $0.error?.translation }.max()
        let largest = ((largestError.map { [$0] } ?? []) + thresholds.levels.map(\.translation)).max() ?? 1
        return LengthDisplay.forLengths(upTo: largest, unit: unit)
    }

    func translationPlot() -> String { gathered(writeTranslationPlot) }

    func rotationPlot() -> String { gathered(writeRotationPlot) }

    /// `translationPlot()` handed to `out` a part at a time.
    func writeTranslationPlot(_ out: (String) -> Void) {
        let d = translationDisplay
        let points = series { $0.translation * d.factor }
        plot(points: points, rules: thresholds.levels.map { $0.translation * d.factor },
             ruleLabel: { i in "threshold " + thresholds.label(i, unit: unit) },
             yTitle: "translation error (\(d.unit), log scale)", id: "translation-error", color: "#2b7bba", to: out)
    }

    /// `rotationPlot()` handed to `out` a part at a time.
    func writeRotationPlot(_ out: (String) -> Void) {
        let points = series { $0.rotationDegrees }
        plot(points: points, rules: thresholds.levels.map(\.degrees),
             ruleLabel: { i in "threshold " + thresholds.label(i, unit: unit) },
             yTitle: "rotation error (°, log scale)", id: "rotation-error", color: "#7b3294", to: out)
    }

    private func plot<Points: Sequence<SIMD2<Double>?>>(points: Points, rules: [Double], ruleLabel: (Int) -> String,
                                                        yTitle: String, id: String, color: String, to out: (String) -> Void) {
        // The least and greatest positive value, points and rules, gathered in one pass.
        var least: Double?, greatest: Double?
        func take(_ v: Double) {
            guard v > 0 else { return }
            if least.map({ v < $0 }) ?? true { least = v }
            if greatest.map({ v > $0 }) ?? true { greatest = v }
        }
        for p in points { if let v = p?.y { take(v) } }
        rules.forEach(take)
        // Errors of exactly zero sit on the lowest tick rather than at minus infinity.
        // Headroom above the largest value, so a threshold line is not drawn on the frame.
        let lo = least ?? 0.1, hi = (greatest ?? 10) * 1.25
        let y = AxisScale.logarithmic(lo, hi)
        let floor = y.lower
        let shown = points.lazy.map { $0.map { SIMD2($0.x, max($0.y, floor)) } }
        let times = self.times
        let lastTime = outcomes.last.map { $0.timestamp - (outcomes.first?.timestamp ?? 0) }
        var frame = PlotFrame(x: AxisScale.linear(0, max(lastTime ?? 1, 1e-3)), y: y,
                              xTitle: "time since the first frame (s)", yTitle: yTitle)
        let classes = FailureReasons(outcomes)
        frame.legend = [PlotFrame.LegendEntry(color: color, label: id == "translation-error" ? "translation error" : "rotation error", shape: .line)]
            + classes.legend
        frame.write(id: id, to: out) { marks in
            for (i, r) in rules.enumerated() where r > 0 {
                marks(frame.horizontalRule(at: r, label: ruleLabel(i), color: i == 0 ? "#1a7a38" : "#8a8a8a"))
            }
            frame.brokenPolyline(shown, color: color, to: marks)
            // Failed frames: a cross on the lower edge, coloured by reason, named in its tooltip.
            let bottom = frame.height - frame.margin.bottom - 9
            for (t, o) in zip(times, outcomes) where !o.result.isLocalized {
                let px = frame.point(t, floor).x
                marks(PlotFrame.cross(at: SIMD2(px, bottom), color: classes.color(of: o),
                                      title: "frame \(o.frameId) at \(String(format: "%.2f", t)) s: \(o.result.reason ?? "not localized")"))
            }
        }
    }
}

extension ErrorTimeline {
    init(outcomes: [FrameOutcome], thresholds: ReportThresholds, unit: ReportMap.LengthUnit) {
        self.init(outcomes: FrameOutcomes(outcomes), thresholds: thresholds, unit: unit)
    }
}
