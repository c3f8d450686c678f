import Foundation
import VPSModel

/// Claimed against actual error, one dot per localized frame with ground truth: the
/// answer's `accuracy` bound (`PoseAccuracy`) on the x axis, its true error on the y axis, both
/// logarithmic, with the diagonal where the error equals the claim. A calibrated localizer
/// keeps about 19 dots in 20 under the diagonal, and not all of them far below it (a bound
/// ten times the error is honest but useless). Position and rotation get a plot each.
struct CalibrationPlot {
    var outcomes: FrameOutcomes
    var unit: ReportMap.LengthUnit

    /// (claimed, actual) per localized frame with ground truth and a claim, made as they are
    /// read (each pass reads the outcomes again): a long run's are never held.
    func pairs(_ pick: @escaping (PoseAccuracy, (translation: Double, rotationDegrees: Double)) -> (Double, Double))
        -> some Sequence<(Double, Double)> {
        outcomes.lazy.compactMap { o in
            guard let a = o.result.accuracy, let e = o.error else { return nil }
            return pick(a, e)
        }
    }

    func positionPlot() -> String { gathered(writePositionPlot) }

    func rotationPlot() -> String { gathered(writeRotationPlot) }

    /// `positionPlot()` handed to `out` a part at a time.
    func writePositionPlot(_ out: (String) -> Void) {
        let all = pairs { a, e in (a.position, e.translation) }
        let d = LengthDisplay.forLengths(upTo: all.lazy.map { max($0.0, $0.1) }.max() ?? 1, unit: unit)
        plot(all.lazy.map { ($0.0 * d.factor, $0.1 * d.factor) }, what: "position", unit: d.unit, id: "calibration-position",
             color: "#2b7bba", to: out)
    }

    /// `rotationPlot()` handed to `out` a part at a time.
    func writeRotationPlot(_ out: (String) -> Void) {
        plot(pairs { a, e in (a.rotationDegrees, e.rotationDegrees) }, what: "rotation", unit: "°", id: "calibration-rotation",
             color: "#7b3294", to: out)
    }

    private func plot<Points: Sequence<(Double, Double)>>(_ points: Points, what: String, unit: String, id: String,
                                                          color: String, to out: (String) -> Void) {
        // The least and greatest positive value, claims and errors, in one pass.
        var least: Double?, greatest: Double?, count = 0, within = 0
        for (claimed, actual) in points {
            count += 1
            if actual <= claimed { within += 1 }
            for v in [claimed, actual] where v > 0 {
                if least.map({ v < $0 }) ?? true { least = v }
                if greatest.map({ v > $0 }) ?? true { greatest = v }
            }
        }
        let lo = (least ?? 0.01) / 1.5, hi = (greatest ?? 1) * 1.5
        let axis = AxisScale.logarithmic(lo, hi)
        var frame = PlotFrame(x: axis, y: axis, xTitle: "claimed 95 % bound on the \(what) error (\(unit), log scale)",
                              yTitle: "actual \(what) error (\(unit), log)")
        frame.height = 420
        let a = frame.point(axis.lower, axis.lower), b = frame.point(axis.upper, axis.upper)
        frame.legend = [
            PlotFrame.LegendEntry(color: color, label: "within its claim (\(within))", shape: .dot),
            PlotFrame.LegendEntry(color: "#d7301f", label: "outside its claim (\(count - within))", shape: .dot),
            PlotFrame.LegendEntry(color: "#1a7a38", label: "error = claim", shape: .dashed),
        ]
        frame.write(id: id, to: out) { marks in
            marks("<line x1=\"\(svgNumber(a.x))\" y1=\"\(svgNumber(a.y))\" x2=\"\(svgNumber(b.x))\" y2=\"\(svgNumber(b.y))\" "
                  + "stroke=\"#1a7a38\" stroke-dasharray=\"6 4\"/>\n")
            for (claimed, actual) in points {
                let p = (claimed: claimed, actual: actual)
                let q = frame.point(p.claimed, max(p.actual, axis.lower))
                let outside = p.actual > p.claimed
                marks("<circle cx=\"\(svgNumber(q.x))\" cy=\"\(svgNumber(q.y))\" r=\"3.5\" fill=\"\(outside ? "#d7301f" : color)\">"
                      + "<title>claimed \(String(format: "%.4g", p.claimed)) \(unit), actual \(String(format: "%.4g", p.actual)) \(unit)</title></circle>\n")
            }
        }
    }
}
