import Foundation

/// Time per pipeline stage: a bar to the median, a tick at the 95th percentile, on one
/// millisecond axis with round ticks.
struct LatencyChart {
    var latency: [LatencyStats]

    func plot() -> String {
        let stages = latency.filter { $0.stage != "total" }
        guard !stages.isEmpty else { return "" }
        let x = AxisScale.linear(0, max(stages.map(\.p95).max() ?? 1, 1e-3))
        let rowHeight = 30.0, left = 110.0, right = 160.0, top = 10.0
        let width = 1000.0, plotWidth = width - left - right
        let height = top + rowHeight * Double(stages.count) + 44
        func px(_ v: Double) -> Double { left + x.fraction(v) * plotWidth }
        var s = "<svg id=\"latency\" class=\"plot\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 \(svgNumber(width)) \(svgNumber(height))\" "
            + "width=\"100%\" font-family=\"sans-serif\" font-size=\"13\"><rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
        let bottom = top + rowHeight * Double(stages.count)
        for t in x.ticks {
            s += "<line x1=\"\(svgNumber(px(t)))\" y1=\"\(svgNumber(top))\" x2=\"\(svgNumber(px(t)))\" y2=\"\(svgNumber(bottom))\" stroke=\"#e4e4e4\"/>"
            s += "<text x=\"\(svgNumber(px(t)))\" y=\"\(svgNumber(bottom + 17))\" text-anchor=\"middle\">\(x.label(t))</text>\n"
        }
        for (i, st) in stages.enumerated() {
            let y = top + rowHeight * Double(i) + 5
            s += "<text x=\"\(svgNumber(left - 8))\" y=\"\(svgNumber(y + 15))\" text-anchor=\"end\">\(escape(st.stage))</text>"
            s += "<rect x=\"\(svgNumber(left))\" y=\"\(svgNumber(y))\" width=\"\(svgNumber(px(st.p50) - left))\" height=\"20\" fill=\"#5e3c99\"/>"
            s += "<line x1=\"\(svgNumber(px(st.p95)))\" x2=\"\(svgNumber(px(st.p95)))\" y1=\"\(svgNumber(y - 3))\" y2=\"\(svgNumber(y + 23))\" stroke=\"#e66101\" stroke-width=\"2.5\"/>"
            s += "<text x=\"\(svgNumber(max(px(st.p50), px(st.p95)) + 8))\" y=\"\(svgNumber(y + 15))\">"
                + String(format: "%.2f / %.2f ms", st.p50, st.p95) + "</text>\n"
        }
        s += "<line x1=\"\(svgNumber(left))\" y1=\"\(svgNumber(bottom))\" x2=\"\(svgNumber(left + plotWidth))\" y2=\"\(svgNumber(bottom))\" stroke=\"#555\"/>"
        s += "<text x=\"\(svgNumber(left + plotWidth / 2))\" y=\"\(svgNumber(height - 6))\" text-anchor=\"middle\">"
            + "milliseconds per frame (bar: median, orange tick: 95th percentile)</text>"
        return s + "</svg>"
    }
}
