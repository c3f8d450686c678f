import Foundation
import Geometry
import Support
import VPSModel

/// The trajectory seen from above, over the map's points and sections: ground truth as a
/// line, each estimate a dot coloured by its error class, failed frames as crosses.
///
/// "Above" is the map's up; for a map that does not know its up, the axis the cameras
/// vary least along (people carry a camera at about one height).
struct TopDownView {
    var outcomes: FrameOutcomes
    var map: ReportMap
    var thresholds: ReportThresholds

    /// Most points drawn: beyond this the picture does not change, the file only grows.
    static let maxPointsDrawn = 20_000

    /// The view's axes in the map frame: `right` along the page, `pageUp` up the page,
    /// seen from `up` (so the picture is not mirrored: right × pageUp = up).
    struct Basis {
        var up: SIMD3<Double>
        var right: SIMD3<Double>
        var pageUp: SIMD3<Double>
        /// Whether up came from the map (false: guessed from the cameras).
        var upIsKnown: Bool

        /// `cameras` is read a few times over when `given` is nil, never copied.
        init<Cameras: Collection<SIMD3<Double>>>(up given: SIMD3<Double>?, cameras: Cameras) {
            let up: SIMD3<Double>
            if let given, length(given) > 0 {
                up = normalize(given); upIsKnown = true
            } else {
                up = Basis.leastVaryingAxis(cameras); upIsKnown = false
            }
            // Right: the map axis most perpendicular to up (x for a y-up map), made exact.
            let axes = [SIMD3<Double>(1, 0, 0), SIMD3(0, 0, 1), SIMD3(0, 1, 0)]
            let a = axes.min { abs(dot($0, up)) < abs(dot($1, up)) }!
            right = normalize(a - dot(a, up) * up)
            pageUp = cross(up, right)
            self.up = up
        }

        func project(_ p: SIMD3<Double>) -> SIMD2<Double> { SIMD2(dot(p, right), dot(p, pageUp)) }

        /// The coordinate axis (±x, ±y, ±z) along which `points` spread least.
        static func leastVaryingAxis<Points: Collection<SIMD3<Double>>>(_ points: Points) -> SIMD3<Double> {
            guard points.count > 1 else { return SIMD3(0, 1, 0) }
            let mean = points.reduce(SIMD3<Double>.zero, +) / Double(points.count)
            var v = SIMD3<Double>.zero
            for p in points { let d = p - mean; v += d * d }
            let i = v.x <= v.y && v.x <= v.z ? 0 : (v.y <= v.z ? 1 : 2)
            var axis = SIMD3<Double>.zero; axis[i] = 1
            return axis
        }

        /// Name of a page axis for its title: `x`, `−z`, or the vector when it is not a map axis.
        static func name(_ v: SIMD3<Double>) -> String {
            for (i, n) in ["x", "y", "z"].enumerated() where abs(abs(v[i]) - 1) < 1e-9 {
                return (v[i] < 0 ? "−" : "") + n
            }
            return String(format: "(%.2f, %.2f, %.2f)", v.x, v.y, v.z)
        }
    }

    func plot() -> String { gathered(write) }

    /// `plot()` handed to `out` a part at a time. Each frame's place on the page is worked
    /// out where it is drawn, not kept: a long session's would fill memory.
    func write(_ out: (String) -> Void) {
        // The cameras are only needed to guess up.
        let upIsGiven = map.up.map { length($0) > 0 } ?? false
        let basis = upIsGiven ? Basis(up: map.up, cameras: [])
            : Basis(up: map.up, cameras: outcomes.lazy.compactMap { $0.groundTruth?.center ?? $0.result.pose?.center })
        func track(_ o: FrameOutcome) -> (SIMD2<Double>?, SIMD2<Double>?) {
            (o.groundTruth.map { basis.project($0.center) }, o.result.pose.map { basis.project($0.center) })
        }
        let step = max(1, map.points.count / TopDownView.maxPointsDrawn)
        let points = stride(from: 0, to: map.points.count, by: step).map { basis.project(map.points[$0]) }

        // Extent: the trajectory and the bulk of the map (1st–99th percentile, so a few far
        // triangulation outliers do not shrink the rooms to a corner).
        // The extent is the least and greatest of those values, gathered as they come.
        var xr = (Double.infinity, -Double.infinity), yr = (Double.infinity, -Double.infinity), empty = true
        func extend(_ p: SIMD2<Double>) {
            if p.x < xr.0 { xr.0 = p.x }
            if p.x > xr.1 { xr.1 = p.x }
            if p.y < yr.0 { yr.0 = p.y }
            if p.y > yr.1 { yr.1 = p.y }
            empty = false
        }
        for o in outcomes {
            let t = track(o)
            if let g = t.0 { extend(g) }
            if let e = t.1 { extend(e) }
        }
        if points.count > 20 {
            let px = points.map(\.x).sorted(), py = points.map(\.y).sorted()
            extend(SIMD2(Statistics.percentile(sorted: px, 1)!, Statistics.percentile(sorted: py, 1)!))
            extend(SIMD2(Statistics.percentile(sorted: px, 99)!, Statistics.percentile(sorted: py, 99)!))
        } else {
            points.forEach(extend)
        }
        if empty { xr = (0, 1); yr = (0, 1) }
        let pad = 0.03 * max(xr.1 - xr.0, yr.1 - yr.0, 1e-6)
        xr = (xr.0 - pad, xr.1 + pad); yr = (yr.0 - pad, yr.1 + pad)

        // One unit is as long across as up the page: same tick step on both axes, and the
        // plot's height follows from its width (within bounds; the narrower axis widens).
        let stepSize = max(AxisScale.linear(xr.0, xr.1, about: 10).step, AxisScale.linear(yr.0, yr.1, about: 10).step)
        var xAxis = AxisScale.linear(xr.0, xr.1, step: stepSize), yAxis = AxisScale.linear(yr.0, yr.1, step: stepSize)
        let pw = PlotFrame.standardPlotWidth
        var ph = pw * (yAxis.upper - yAxis.lower) / (xAxis.upper - xAxis.lower)
        if ph > 1100 {
            ph = 1100
            let span = (yAxis.upper - yAxis.lower) * pw / ph, mid = (xAxis.lower + xAxis.upper) / 2
            xAxis = AxisScale.linear(mid - span / 2, mid + span / 2, step: stepSize, exactRange: true)
        } else if ph < 260 {
            ph = 260
            let span = (xAxis.upper - xAxis.lower) * ph / pw, mid = (yAxis.lower + yAxis.upper) / 2
            yAxis = AxisScale.linear(mid - span / 2, mid + span / 2, step: stepSize, exactRange: true)
        }
        let unitName = map.lengthUnit == .metres ? "m" : "map units"
        var frame = PlotFrame(height: ph + 62, x: xAxis, y: yAxis,
                          xTitle: "\(Basis.name(basis.right)) (\(unitName))",
                          yTitle: "\(Basis.name(basis.pageUp)) (\(unitName))")

        var legend: [PlotFrame.LegendEntry] = [.init(color: "#555", label: "ground truth", shape: .line)]
        for i in thresholds.levels.indices {
            legend.append(.init(color: ReportThresholds.colors[min(i, 3)], label: "estimate within " + thresholds.label(i, unit: map.lengthUnit), shape: .dot))
        }
        legend.append(.init(color: ReportThresholds.colors[min(thresholds.levels.count, 3)], label: "estimate beyond", shape: .dot))
        if outcomes.contains(where: { $0.groundTruth == nil && $0.result.isLocalized }) {
            legend.append(.init(color: "#2b7bba", label: "estimate (no ground truth)", shape: .dot))
        }
        legend.append(.init(color: "#d7191c", label: "failed frame", shape: .cross))
        if !points.isEmpty { legend.append(.init(color: "#b9b9b9", label: "map points", shape: .dot)) }
        if !map.sections.isEmpty { legend.append(.init(color: "#6b8fb5", label: "map sections", shape: .dashed)) }
        frame.legend = legend
        frame.write(id: "top-down", to: out) { out in
            var marks = ""
            // Map points: one path of zero-length round-capped segments (a dot each, small file).
            if !points.isEmpty {
                marks += "<path class=\"map-points\" stroke=\"#b9b9b9\" stroke-width=\"2.2\" stroke-linecap=\"round\" d=\""
                for p in points {
                    let q = frame.point(p.x, p.y)
                    marks += "M\(svgNumber(q.x)) \(svgNumber(q.y))h0"
                }
                marks += "\"/>\n"
            }
            for s in map.sections {
                guard let lo = s.boundsMin, let hi = s.boundsMax else { continue }
                var corners: [SIMD2<Double>] = []
                for i in 0..<8 {
                    corners.append(basis.project(SIMD3(i & 1 == 0 ? lo.x : hi.x, i & 2 == 0 ? lo.y : hi.y, i & 4 == 0 ? lo.z : hi.z)))
                }
                let a = frame.point(corners.map(\.x).min()!, corners.map(\.y).max()!)
                let b = frame.point(corners.map(\.x).max()!, corners.map(\.y).min()!)
                marks += "<rect class=\"section\" x=\"\(svgNumber(a.x))\" y=\"\(svgNumber(a.y))\" width=\"\(svgNumber(b.x - a.x))\" "
                    + "height=\"\(svgNumber(b.y - a.y))\" fill=\"none\" stroke=\"#6b8fb5\" stroke-dasharray=\"8 5\"/>"
                marks += "<text x=\"\(svgNumber(a.x + 6))\" y=\"\(svgNumber(a.y + 16))\" fill=\"#44688f\" font-size=\"13\">\(escape(s.name))</text>\n"
            }
            out(marks)
            frame.brokenPolyline(outcomes.lazy.map { track($0).0 }, color: "#555", width: 1.2, to: out)
            for o in outcomes {
                let t = track(o)
                var marks = ""
                let title = "frame \(o.frameId)"
                if let est = t.1 {
                    let p = frame.point(est.x, est.y)
                    var color = "#2b7bba"
                    if let e = o.error {
                        color = thresholds.color(of: e)
                        // An estimate beyond the primary threshold: show where it should have been.
                        if thresholds.level(of: e) != 0, let gt = t.0 {
                            let g = frame.point(gt.x, gt.y)
                            marks += "<line x1=\"\(svgNumber(g.x))\" y1=\"\(svgNumber(g.y))\" x2=\"\(svgNumber(p.x))\" y2=\"\(svgNumber(p.y))\" stroke=\"\(color)\" stroke-width=\"1.2\"/>"
                        }
                    }
                    marks += "<circle cx=\"\(svgNumber(p.x))\" cy=\"\(svgNumber(p.y))\" r=\"3.6\" fill=\"\(color)\" stroke=\"white\" stroke-width=\"0.6\"><title>\(escape(title))</title></circle>"
                } else if let gt = t.0 {
                    marks += PlotFrame.cross(at: frame.point(gt.x, gt.y), color: "#d7191c",
                                             title: "\(title): \(o.result.reason ?? "not localized")")
                }
                out(marks)
            }
        }
        if !basis.upIsKnown {
            out("<p class=\"note\">The map does not say which way is up: seen along \(Basis.name(basis.up)), the axis the cameras vary least along.</p>")
        }
    }
}

extension TopDownView {
    init(outcomes: [FrameOutcome], map: ReportMap, thresholds: ReportThresholds) {
        self.init(outcomes: FrameOutcomes(outcomes), map: map, thresholds: thresholds)
    }
}
