import Foundation

/// A minimal SVG line/scatter plot: enough for the batch report's pictures, with no
/// outside dependency (the report must be one self-contained file).
struct SVGPlot {
    struct Series {
        var name: String
        var color: String
        var points: [SIMD2<Double>]
        /// Draw a polyline (true) or dots (false).
        var line: Bool
        var radius: Double = 2.5
    }

    var title: String
    var xLabel: String
    var yLabel: String
    var width = 640.0
    var height = 400.0
    /// Keep one unit the same length on both axes (for top-down maps).
    var equalAspect = false
    var series: [Series] = []

    private let margin = (left: 60.0, right: 20.0, top: 30.0, bottom: 45.0)

    func render() -> String {
        let all = series.flatMap(\.points).filter { $0.x.isFinite && $0.y.isFinite }
        var lo = all.reduce(SIMD2(Double.infinity, .infinity)) { SIMD2(min($0.x, $1.x), min($0.y, $1.y)) }
        var hi = all.reduce(SIMD2(-Double.infinity, -.infinity)) { SIMD2(max($0.x, $1.x), max($0.y, $1.y)) }
        if all.isEmpty { lo = .zero; hi = SIMD2(1, 1) }
        for i in 0..<2 where hi[i] - lo[i] < 1e-9 { lo[i] -= 0.5; hi[i] += 0.5 }
        let pw = width - margin.left - margin.right, ph = height - margin.top - margin.bottom
        var sx = pw / (hi.x - lo.x), sy = ph / (hi.y - lo.y)
        if equalAspect { sx = min(sx, sy); sy = sx }
        func map(_ p: SIMD2<Double>) -> (Double, Double) {
            (margin.left + (p.x - lo.x) * sx, margin.top + ph - (p.y - lo.y) * sy)
        }
        var svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(Int(width))\" height=\"\(Int(height))\" "
            + "viewBox=\"0 0 \(Int(width)) \(Int(height))\" font-family=\"sans-serif\" font-size=\"12\">\n"
        svg += "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
        svg += "<text x=\"\(Int(width / 2))\" y=\"18\" text-anchor=\"middle\" font-weight=\"bold\">\(escape(title))</text>\n"
        // Axes with 5 ticks each.
        let (x0, y0) = map(lo)
        svg += "<line x1=\"\(f(x0))\" y1=\"\(f(y0))\" x2=\"\(f(x0 + (hi.x - lo.x) * sx))\" y2=\"\(f(y0))\" stroke=\"#333\"/>\n"
        svg += "<line x1=\"\(f(x0))\" y1=\"\(f(y0))\" x2=\"\(f(x0))\" y2=\"\(f(y0 - (hi.y - lo.y) * sy))\" stroke=\"#333\"/>\n"
        for k in 0...4 {
            let vx = lo.x + (hi.x - lo.x) * Double(k) / 4, vy = lo.y + (hi.y - lo.y) * Double(k) / 4
            let (px, _) = map(SIMD2(vx, lo.y)), (_, py) = map(SIMD2(lo.x, vy))
            svg += "<text x=\"\(f(px))\" y=\"\(f(y0 + 16))\" text-anchor=\"middle\">\(tick(vx))</text>\n"
            svg += "<text x=\"\(f(x0 - 6))\" y=\"\(f(py + 4))\" text-anchor=\"end\">\(tick(vy))</text>\n"
        }
        svg += "<text x=\"\(Int(margin.left + pw / 2))\" y=\"\(Int(height - 8))\" text-anchor=\"middle\">\(escape(xLabel))</text>\n"
        svg += "<text x=\"14\" y=\"\(Int(margin.top + ph / 2))\" text-anchor=\"middle\" "
            + "transform=\"rotate(-90 14 \(Int(margin.top + ph / 2)))\">\(escape(yLabel))</text>\n"
        for s in series {
            let pts = s.points.filter { $0.x.isFinite && $0.y.isFinite }.map(map)
            if s.line, pts.count > 1 {
                svg += "<polyline fill=\"none\" stroke=\"\(s.color)\" stroke-width=\"1.5\" points=\""
                    + pts.map { "\(f($0.0)),\(f($0.1))" }.joined(separator: " ") + "\"/>\n"
            } else {
                for p in pts {
                    svg += "<circle cx=\"\(f(p.0))\" cy=\"\(f(p.1))\" r=\"\(s.radius)\" fill=\"\(s.color)\"/>\n"
                }
            }
        }
        // Legend.
        for (i, s) in series.enumerated() {
            let y = margin.top + 8 + Double(i) * 16
            svg += "<rect x=\"\(f(width - 170))\" y=\"\(f(y - 8))\" width=\"10\" height=\"10\" fill=\"\(s.color)\"/>"
            svg += "<text x=\"\(f(width - 155))\" y=\"\(f(y + 1))\">\(escape(s.name))</text>\n"
        }
        return svg + "</svg>"
    }

    private func f(_ v: Double) -> String { String(format: "%.1f", v) }
    private func tick(_ v: Double) -> String { abs(v) >= 100 ? String(format: "%.0f", v) : String(format: "%.2f", v) }
}

/// Escapes text for HTML and SVG.
func escape(_ s: String) -> String {
    s.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
        .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
}
