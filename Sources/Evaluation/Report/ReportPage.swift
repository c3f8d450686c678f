import Foundation
import Geometry

/// The HTML report of a batch run: key figures, the recall curve, errors over time, the
/// top-down trajectory over the map, the worst frames with their matches, latency, and
/// the sortable per-frame table. One self-contained file (inline SVG, CSS and script;
/// images as data URIs).
struct ReportPage {
    var report: BatchReport

    func html() -> String {
        var page = ""
        write { page += $0 }
        return page
    }

    /// The page, handed to `out` a part at a time (the frame table a row at a time): a long
    /// run's report is written as it is made, never held whole.
    func write(_ out: (String) -> Void) {
        let r = report, s = r.summary
        let thresholds = ReportThresholds(s)
        let unit = r.map.lengthUnit
        let hasTruth = s.framesWithGroundTruth > 0
        out("""
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
            <title>arcloud localization report: \(escape(r.sessionName))</title>
            <style>\(ReportPage.css)</style>
            </head><body>

            """)
        out("<h1>Localization report</h1>\n")
        out("<p class=\"lead\">Session <b>\(escape(r.sessionName))</b> against map <b>\(escape(r.mapName))</b>, "
            + "mode <b>\(escape(r.mode))</b>: \(s.frames) frames.</p>\n")
        out(keyFigures(thresholds: thresholds))
        if hasTruth {
            out("<h2 id=\"section-recall\">Recall</h2>\n<p>Share of the frames with ground truth placed within a distance, for each "
                + "rotation bound; failed frames count as misses. Circles: the summary's thresholds.</p>\n")
            RecallCurve(outcomes: r.outcomes, thresholds: thresholds, unit: unit).write(out)
            out("\n")
            let timeline = ErrorTimeline(outcomes: r.outcomes, thresholds: thresholds, unit: unit)
            out("<h2 id=\"section-error\">Error over time</h2>\n<p>Against the ground truth, on log scales; dashed: thresholds. "
                + "The line breaks where a frame failed (× on the lower edge, coloured by reason; hover for the frame and reason).</p>\n")
            timeline.writeTranslationPlot(out)
            out("\n")
            timeline.writeRotationPlot(out)
            out("\n")
            if let c = s.calibration {
                let calibration = CalibrationPlot(outcomes: r.outcomes, unit: unit)
                out("<h2 id=\"section-calibration\">Claimed against actual error</h2>\n<p>Each localized frame's claimed 95 % "
                    + "accuracy (x) against its error from the ground truth (y). Under the dashed diagonal, the claim held: "
                    + String(format: "%d of %d frames (%.1f %%); median error / claim: position %.2f, rotation %.2f.",
                             c.withinClaim, c.accepted, 100 * c.fraction, c.medianPositionRatio, c.medianRotationRatio)
                    + " A calibrated localizer keeps about 95 % under it.</p>\n")
                calibration.writePositionPlot(out)
                out("\n")
                calibration.writeRotationPlot(out)
                out("\n")
            }
        } else {
            out("<p class=\"note\">This session has no ground truth: accuracy, recall and error plots are not available.</p>\n")
        }
        out("<h2 id=\"section-top-down\">Trajectory, top-down</h2>\n")
        TopDownView(outcomes: r.outcomes, map: r.map, thresholds: thresholds).write(out)
        out("\n")
        out("<h2 id=\"section-worst\">Worst frames</h2>\n<p>Failed frames first, then the largest errors. Green rings: the inlier keypoints; "
            + "orange: from each to where the ground-truth pose puts its map point.</p>\n")
        out(WorstFrames(outcomes: r.outcomes, thresholds: thresholds, map: r.map, camera: r.camera,
                        images: r.frameImage, unit: unit).html() + "\n")
        out("<h2 id=\"section-latency\">Latency per stage</h2>\n" + LatencyChart(latency: s.latency).plot() + "\n")
        out("<h2 id=\"section-frames\">Frames</h2>\n<p>Click a column's header to sort by it.</p>\n")
        FrameTable(outcomes: r.outcomes, unit: unit).write(out)
        out("\n")
        out("<h2>Summary as printed</h2>\n<pre id=\"summary\">\(escape(s.text))</pre>\n")
        out("</body></html>")
    }

    /// The headline numbers as tiles.
    private func keyFigures(thresholds: ReportThresholds) -> String {
        let s = report.summary
        let d = LengthDisplay.forLengths(upTo: max(s.p90TranslationError ?? 0, thresholds.levels.first?.translation ?? 0),
                                         unit: report.map.lengthUnit)
        var tiles: [(String, String)] = [("localized", String(format: "%.1f %%", s.successRate * 100) + " (\(s.localized) of \(s.frames))")]
        for (i, r) in s.recall.enumerated() where s.framesWithGroundTruth > 0 {
            tiles.append(("within " + thresholds.label(i, unit: report.map.lengthUnit), String(format: "%.1f %%", r.fraction * 100)))
        }
        if let t = s.medianTranslationError, let rot = s.medianRotationErrorDegrees {
            tiles.append(("median error", d.text(t) + String(format: ", %.2f°", rot)))
        }
        if let ate = s.ateRMSE { tiles.append(("ATE RMSE", d.text(ate))) }
        tiles.append(("speed", String(format: "%.1f frames/s", s.framesPerSecond)))
        return "<div class=\"tiles\">" + tiles.map { "<div class=\"tile\"><div class=\"k\">\(escape($0.0))</div><div class=\"v\">\(escape($0.1))</div></div>" }.joined() + "</div>\n"
    }

    static let css = """
        body{font-family:system-ui,sans-serif;margin:0 auto;padding:1em 2em;max-width:1400px;color:#222}
        h1{margin-bottom:.2em}h2{margin-top:1.6em;border-bottom:1px solid #ddd;padding-bottom:.2em}
        svg.plot{display:block;width:100%;height:auto;margin:.5em 0;border:1px solid #eee}
        .tiles{display:flex;flex-wrap:wrap;gap:.8em;margin:1em 0}
        .tile{border:1px solid #ddd;border-radius:6px;padding:.5em .9em;min-width:10em}
        .tile .k{font-size:.85em;color:#666}.tile .v{font-size:1.35em;font-weight:600}
        .note{color:#8a5a00}
        .worst{display:grid;grid-template-columns:repeat(auto-fill,minmax(420px,1fr));gap:1em}
        .worst figure{margin:0}.worst figcaption{font-size:.9em;margin-top:.3em}
        .noimage{background:#f3f3f3;padding:3em;text-align:center;color:#777}
        pre{background:#f6f6f6;padding:1em;overflow-x:auto}
        table{border-collapse:collapse;font-size:13px;width:100%}
        th{position:sticky;top:0;background:#f0f0f0;cursor:pointer;user-select:none}
        th[aria-sort=ascending]::after{content:" ▲"}th[aria-sort=descending]::after{content:" ▼"}
        td,th{border:1px solid #ddd;padding:3px 7px;text-align:right}
        td:nth-child(2),td:nth-child(4),td:nth-child(5),td:last-child,th:nth-child(2),th:nth-child(4),th:nth-child(5),th:last-child{text-align:left}
        tr.failed{background:#fdecea}tr:target{outline:2px solid #e66101}
        """
}
