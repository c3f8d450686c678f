import Foundation
import Geometry

/// Writes the outputs of a batch localization run into a folder:
/// `results.jsonl` (one `FrameOutcome` per line), `trajectory.tum` (estimated poses, TUM
/// format for `evo`), `groundtruth.tum` (when known), `summary.json` and `report.html`
/// (self-contained: inline SVG pictures, no scripts, no outside files).
public struct BatchReport: Sendable {
    public var sessionName: String
    public var mapName: String
    public var mode: String
    public var outcomes: [FrameOutcome]
    public var summary: AccuracySummary

    public init(sessionName: String, mapName: String, mode: String, outcomes: [FrameOutcome], summary: AccuracySummary) {
        self.sessionName = sessionName; self.mapName = mapName; self.mode = mode
        self.outcomes = outcomes; self.summary = summary
    }

    /// The file names written into the output folder.
    public enum File {
        public static let results = "results.jsonl"
        public static let trajectory = "trajectory.tum"
        public static let groundTruth = "groundtruth.tum"
        public static let summary = "summary.json"
        public static let report = "report.html"
    }

    public func write(to folder: URL) throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        var jsonl = Data()
        for o in outcomes {
            jsonl.append(try encoder.encode(o))
            jsonl.append(0x0A)
        }
        try jsonl.write(to: folder.appendingPathComponent(File.results), options: .atomic)
        let header = "# timestamp tx ty tz qx qy qz qw\n"
        let estimated = outcomes.compactMap { o in o.result.pose.map { $0.tumLine(timestamp: o.timestamp) } }
        try (header + estimated.map { $0 + "\n" }.joined())
            .write(to: folder.appendingPathComponent(File.trajectory), atomically: true, encoding: .utf8)
        let truth = outcomes.compactMap { o in o.groundTruth.map { $0.tumLine(timestamp: o.timestamp) } }
        if !truth.isEmpty {
            try (header + truth.map { $0 + "\n" }.joined())
                .write(to: folder.appendingPathComponent(File.groundTruth), atomically: true, encoding: .utf8)
        }
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        try encoder.encode(summary).write(to: folder.appendingPathComponent(File.summary), options: .atomic)
        try html().write(to: folder.appendingPathComponent(File.report), atomically: true, encoding: .utf8)
    }

    /// The report page.
    public func html() -> String {
        // Top-down view: map x to the right, map z up the page (y is up in the map frame).
        func topDown(_ p: Pose) -> SIMD2<Double> { SIMD2(p.translation.x, p.translation.z) }
        var plan = SVGPlot(title: "Trajectory, top-down (x, z)", xLabel: "x (m)", yLabel: "z (m)", equalAspect: true)
        plan.series.append(.init(name: "ground truth", color: "#2b7bba",
                                 points: outcomes.compactMap { $0.groundTruth.map(topDown) }, line: true))
        plan.series.append(.init(name: "estimate", color: "#e66101",
                                 points: outcomes.compactMap { $0.result.pose.map(topDown) }, line: false))
        plan.series.append(.init(name: "failed frames", color: "#d7191c",
                                 points: outcomes.filter { !$0.result.isLocalized }.compactMap { $0.groundTruth.map(topDown) },
                                 line: false, radius: 4))
        var err = SVGPlot(title: "Error over time", xLabel: "time (s)", yLabel: "translation error (cm) / rotation error (0.1°)")
        err.series.append(.init(name: "translation (cm)", color: "#2b7bba",
                                points: outcomes.compactMap { o in o.error.map { SIMD2(o.timestamp, $0.translation * 100) } }, line: true))
        err.series.append(.init(name: "rotation (0.1°)", color: "#e66101",
                                points: outcomes.compactMap { o in o.error.map { SIMD2(o.timestamp, $0.rotationDegrees * 10) } }, line: true))
        let stages = summary.latency.filter { $0.stage != "total" }
        let maxMs = max(stages.map(\.p95).max() ?? 1, 1e-3)
        var bars = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"640\" height=\"\(40 + stages.count * 26)\" font-family=\"sans-serif\" font-size=\"12\">"
        bars += "<text x=\"320\" y=\"18\" text-anchor=\"middle\" font-weight=\"bold\">Latency per stage (p50 bar, p95 tick), ms</text>"
        for (i, s) in stages.enumerated() {
            let y = 34 + i * 26
            let w50 = 440 * s.p50 / maxMs, w95 = 440 * s.p95 / maxMs
            bars += "<text x=\"90\" y=\"\(y + 13)\" text-anchor=\"end\">\(escape(s.stage))</text>"
            bars += "<rect x=\"100\" y=\"\(y)\" width=\"\(String(format: "%.1f", w50))\" height=\"18\" fill=\"#5e3c99\"/>"
            bars += "<line x1=\"\(String(format: "%.1f", 100 + w95))\" x2=\"\(String(format: "%.1f", 100 + w95))\" y1=\"\(y - 2)\" y2=\"\(y + 20)\" stroke=\"#e66101\" stroke-width=\"2\"/>"
            bars += "<text x=\"\(String(format: "%.1f", 106 + max(w50, w95)))\" y=\"\(y + 13)\">\(String(format: "%.2f / %.2f", s.p50, s.p95))</text>"
        }
        bars += "</svg>"
        let rows = outcomes.map { o -> String in
            let e = o.error
            return "<tr><td>\(escape(o.frameId))</td><td>\(String(format: "%.3f", o.timestamp))</td><td>\(o.result.status.rawValue)</td>"
                + "<td>\(escape(o.result.sectionId ?? ""))</td><td>\(o.result.inliers)</td>"
                + "<td>\(e.map { String(format: "%.2f", $0.translation * 100) } ?? "")</td>"
                + "<td>\(e.map { String(format: "%.3f", $0.rotationDegrees) } ?? "")</td>"
                + "<td>\(String(format: "%.2f", o.result.timings.total))</td><td>\(escape(o.result.reason ?? ""))</td></tr>"
        }
        return """
            <!DOCTYPE html>
            <html><head><meta charset="utf-8"><title>arcloud localization report: \(escape(sessionName))</title>
            <style>body{font-family:sans-serif;margin:2em;max-width:1000px}pre{background:#f4f4f4;padding:1em}
            table{border-collapse:collapse;font-size:12px}td,th{border:1px solid #ccc;padding:2px 6px;text-align:right}</style>
            </head><body>
            <h1>Localization report</h1>
            <p>Session <b>\(escape(sessionName))</b> against map <b>\(escape(mapName))</b>, mode <b>\(escape(mode))</b>.</p>
            <h2>Summary</h2>
            <pre id="summary">\(escape(summary.text))</pre>
            <h2>Pictures</h2>
            \(plan.render())
            \(err.render())
            \(bars)
            <h2>Frames</h2>
            <table><tr><th>frame</th><th>time (s)</th><th>status</th><th>section</th><th>inliers</th><th>error (cm)</th><th>error (°)</th><th>total (ms)</th><th>reason</th></tr>
            \(rows.joined(separator: "\n"))
            </table>
            </body></html>
            """
    }
}
