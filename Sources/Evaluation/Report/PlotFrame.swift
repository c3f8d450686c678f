import Foundation

/// The frame of one SVG plot: size, margins, the two axes with their grid, tick labels,
/// axis titles (with units) and a legend. Plots draw their marks through `point(_:_:)`
/// and wrap them with `svg(_:)`.
///
/// The SVG has a `viewBox` and the page's full width: it fills the page's width and scales its
/// text with it, so a plot reads the same on a laptop and on a wide screen.
struct PlotFrame {
    var width = 1000.0
    var height = 340.0
    var x: AxisScale
    var y: AxisScale
    var xTitle: String
    var yTitle: String
    var margin = (left: 70.0, right: 20.0, top: 16.0, bottom: 46.0)
    /// Entries drawn in rows under the plot.
    var legend: [LegendEntry] = []

    struct LegendEntry {
        enum Shape { case line, dot, ring, cross, dashed }
        var color: String
        var label: String
        var shape: Shape
    }

    var plotWidth: Double { width - margin.left - margin.right }
    /// The plot area's width with the default size and margins.
    static let standardPlotWidth = 910.0
    var plotHeight: Double { height - margin.top - margin.bottom }

    /// Pixel position of a data point.
    func point(_ vx: Double, _ vy: Double) -> SIMD2<Double> {
        SIMD2(margin.left + x.fraction(vx) * plotWidth, margin.top + (1 - y.fraction(vy)) * plotHeight)
    }

    /// The whole `<svg>` element: grid and axes under `marks`, the legend below the axes
    /// (never over the data).
    func svg(_ marks: String, id: String) -> String {
        var svg = ""
        write(id: id, to: { svg += $0 }) { $0(marks) }
        return svg
    }

    /// The same element handed to `out` a part at a time, `marks` writing the marks in
    /// their place: a plot of a long session's frames is never held whole. Set `legend`
    /// first.
    func write(id: String, to out: (String) -> Void, marks: ((String) -> Void) -> Void) {
        let legendRows = legendLayout()
        let totalHeight = height + (legendRows.isEmpty ? 0 : Double(legendRows.count) * 20 + 8)
        var s = "<svg id=\"\(id)\" class=\"plot\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 \(svgNumber(width)) \(svgNumber(totalHeight))\" "
            + "width=\"100%\" font-family=\"sans-serif\" font-size=\"13\">\n"
        s += "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
        let left = margin.left, right = width - margin.right, top = margin.top, bottom = height - margin.bottom
        var lastLabel = -Double.infinity
        for t in x.ticks {
            let px = point(t, y.lower).x
            s += "<line x1=\"\(svgNumber(px))\" y1=\"\(svgNumber(top))\" x2=\"\(svgNumber(px))\" y2=\"\(svgNumber(bottom))\" stroke=\"#e4e4e4\"/>"
            // A label too close to the previous one (the ends of a log axis) is left out.
            let label = x.label(t)
            if px - lastLabel >= 8 * Double(label.count) + 6 {
                s += "<text x=\"\(svgNumber(px))\" y=\"\(svgNumber(bottom + 17))\" text-anchor=\"middle\">\(label)</text>\n"
                lastLabel = px
            }
        }
        lastLabel = Double.infinity
        for t in y.ticks {
            let py = point(x.lower, t).y
            s += "<line x1=\"\(svgNumber(left))\" y1=\"\(svgNumber(py))\" x2=\"\(svgNumber(right))\" y2=\"\(svgNumber(py))\" stroke=\"#e4e4e4\"/>"
            if lastLabel - py >= 15 {
                s += "<text x=\"\(svgNumber(left - 6))\" y=\"\(svgNumber(py + 4))\" text-anchor=\"end\">\(y.label(t))</text>\n"
                lastLabel = py
            }
        }
        s += "<rect x=\"\(svgNumber(left))\" y=\"\(svgNumber(top))\" width=\"\(svgNumber(plotWidth))\" height=\"\(svgNumber(plotHeight))\" fill=\"none\" stroke=\"#555\"/>\n"
        s += "<text x=\"\(svgNumber(left + plotWidth / 2))\" y=\"\(svgNumber(height - 8))\" text-anchor=\"middle\">\(escape(xTitle))</text>\n"
        let cy = top + plotHeight / 2
        s += "<text x=\"16\" y=\"\(svgNumber(cy))\" text-anchor=\"middle\" transform=\"rotate(-90 16 \(svgNumber(cy)))\">\(escape(yTitle))</text>\n"
        // Marks outside the axes (a value off the scale) must not spill over the labels.
        s += "<clipPath id=\"\(id)-clip\"><rect x=\"\(svgNumber(left))\" y=\"\(svgNumber(top))\" width=\"\(svgNumber(plotWidth))\" height=\"\(svgNumber(plotHeight))\"/></clipPath>\n"
        out(s + "<g clip-path=\"url(#\(id)-clip)\">\n")
        withoutActuallyEscaping(out) { marks($0) }
        s = "</g>\n"
        for (row, entries) in legendRows.enumerated() {
            let cy = height + 8 + 20 * Double(row)
            for (x0, e) in entries { s += legendEntry(e, at: SIMD2(x0, cy)) }
        }
        out(s + "</svg>")
    }

    /// Legend entries in rows across the plot's width: (left edge, entry) per row.
    private func legendLayout() -> [[(Double, LegendEntry)]] {
        var rows: [[(Double, LegendEntry)]] = []
        var x = margin.left
        for e in legend {
            let w = 34 + 7.2 * Double(e.label.count) + 18
            if rows.isEmpty || x + w > width - margin.right { rows.append([]); x = margin.left }
            rows[rows.count - 1].append((x, e))
            x += w
        }
        return rows
    }

    private func legendEntry(_ e: LegendEntry, at p: SIMD2<Double>) -> String {
        let cx = p.x + 12, cy = p.y
        var s: String
        switch e.shape {
        case .line: s = "<line x1=\"\(svgNumber(cx - 10))\" y1=\"\(svgNumber(cy))\" x2=\"\(svgNumber(cx + 10))\" y2=\"\(svgNumber(cy))\" stroke=\"\(e.color)\" stroke-width=\"2.5\"/>"
        case .dashed: s = "<line x1=\"\(svgNumber(cx - 10))\" y1=\"\(svgNumber(cy))\" x2=\"\(svgNumber(cx + 10))\" y2=\"\(svgNumber(cy))\" stroke=\"\(e.color)\" stroke-width=\"1.5\" stroke-dasharray=\"4 3\"/>"
        case .dot: s = "<circle cx=\"\(svgNumber(cx))\" cy=\"\(svgNumber(cy))\" r=\"4.5\" fill=\"\(e.color)\"/>"
        case .ring: s = "<circle cx=\"\(svgNumber(cx))\" cy=\"\(svgNumber(cy))\" r=\"5\" fill=\"white\" stroke=\"\(e.color)\" stroke-width=\"2\"/>"
        case .cross: s = PlotFrame.cross(at: SIMD2(cx, cy), color: e.color)
        }
        s += "<text x=\"\(svgNumber(cx + 18))\" y=\"\(svgNumber(cy + 4.5))\">\(escape(e.label))</text>\n"
        return s
    }

    /// An × mark (failed frames).
    static func cross(at p: SIMD2<Double>, color: String, size: Double = 4.5, title: String? = nil) -> String {
        let t = title.map { "<title>\(escape($0))</title>" } ?? ""
        return "<g stroke=\"\(color)\" stroke-width=\"2\">\(t)"
            + "<line x1=\"\(svgNumber(p.x - size))\" y1=\"\(svgNumber(p.y - size))\" x2=\"\(svgNumber(p.x + size))\" y2=\"\(svgNumber(p.y + size))\"/>"
            + "<line x1=\"\(svgNumber(p.x - size))\" y1=\"\(svgNumber(p.y + size))\" x2=\"\(svgNumber(p.x + size))\" y2=\"\(svgNumber(p.y - size))\"/></g>"
    }

    /// Polylines through `points`, one per run of non-nil points: a nil (a failed frame, a
    /// frame without ground truth) breaks the line instead of being bridged by it.
    func brokenPolyline<Points: Sequence<SIMD2<Double>?>>(_ points: Points, color: String,
                                                          width strokeWidth: Double = 1.8) -> String {
        var s = ""
        brokenPolyline(points, color: color, width: strokeWidth) { s += $0 }
        return s
    }

    /// The same, handed to `out` a part at a time: a run as long as the session (every
    /// frame localized) is written as it comes, a few thousand points at a time, not held.
    func brokenPolyline<Points: Sequence<SIMD2<Double>?>>(_ points: Points, color: String, width strokeWidth: Double = 1.8,
                                                          to out: (String) -> Void) {
        // A run of one point is a dot: the first point waits until the second says which.
        var first: SIMD2<Double>?
        var open = false, pending = "", written = 0
        func add(_ p: SIMD2<Double>) {
            let q = point(p.x, p.y)
            pending += (written == 0 ? "" : " ") + "\(svgNumber(q.x)),\(svgNumber(q.y))"
            written += 1
            if pending.utf8.count >= 1 << 16 { out(pending); pending = "" }
        }
        func end() {
            if let p = first, !open {
                let q = point(p.x, p.y)
                out("<circle cx=\"\(svgNumber(q.x))\" cy=\"\(svgNumber(q.y))\" r=\"2.5\" fill=\"\(color)\"/>\n")
            } else if open {
                out(pending + "\"/>\n")
            }
            first = nil; open = false; pending = ""; written = 0
        }
        for p in points {
            guard let p else { end(); continue }
            if first == nil { first = p; continue }
            if !open {
                open = true
                pending = "<polyline class=\"run\" fill=\"none\" stroke=\"\(color)\" stroke-width=\"\(svgNumber(strokeWidth))\" points=\""
                add(first!)
            }
            add(p)
        }
        end()
    }

    /// A labelled horizontal line at `value` (a threshold).
    func horizontalRule(at value: Double, label: String, color: String) -> String {
        let py = point(x.lower, value).y
        return "<line x1=\"\(svgNumber(margin.left))\" y1=\"\(svgNumber(py))\" x2=\"\(svgNumber(width - margin.right))\" y2=\"\(svgNumber(py))\" "
            + "stroke=\"\(color)\" stroke-width=\"1.5\" stroke-dasharray=\"6 4\"/>"
            + "<text x=\"\(svgNumber(margin.left + 6))\" y=\"\(svgNumber(py - 4))\" fill=\"\(color)\" font-size=\"12\">\(escape(label))</text>\n"
    }
}
