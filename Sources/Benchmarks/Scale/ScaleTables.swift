import Foundation

/// What `bench scale` found for one map (the baseline or one size).
package struct ScaleResult: Codable {
    package var label: String
    /// `FxWxR`, nil for the baseline.
    package var building: String?
    package var build: ChildProcess.Run?
    package var probeProcess: ChildProcess.Run?
    package var probe: ScaleProbe.Report?
    /// Why a stage failed; the figures measured before it are kept.
    package var failure: String?

    package init(label: String, building: String?) { self.label = label; self.building = building }

    /// Single-shot median time per frame (all sessions) over the baseline map's, measured
    /// in turn in the same process; nil for the baseline itself.
    package var ratio: Double? {
        guard let p = probe, let mine = p.p50["single-shot"]?["total"],
              let base = p.baselineP50?["single-shot"]?["total"], base > 0 else { return nil }
        return mine / base
    }
}

/// `bench scale --json`: the results, the baseline first, with each size's ratio.
package struct ScaleSummary: Encodable {
    package var results: [ScaleResult]

    package init(results: [ScaleResult]) { self.results = results }

    private enum CodingKeys: String, CodingKey { case definitions, results, singleShotRatioToBaseline }

    package func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(results, forKey: .results)
        try c.encode(ScaleTables.definitions, forKey: .definitions)
        var ratios: [String: Double] = [:]
        for r in results where r.building != nil { if let x = r.ratio { ratios[r.label] = x } }
        try c.encode(ratios, forKey: .singleShotRatioToBaseline)
    }
}

/// The tables `bench scale` prints.
package enum ScaleTables {
    package static let definitions = [
        "recall": "share of a session's frames localized within (5 cm, 2°) of the ground truth",
        "wrong": "frames localized more than 25 cm or 5° from the ground truth",
        "resident": "resident memory added by loading and indexing the map, in a fresh process",
        "heap": "C heap growth over the same span (what serve --map-cache-mb counts)",
        "ratio": "single-shot median time per frame (walk and hard together) over the baseline map's, "
            + "a frame of each in turn in one process",
    ]

    package static func render(_ results: [ScaleResult]) -> String {
        var out = "bench scale: maps of a synthetic building; baseline: the one-gallery map; one thread\n\n"
        out += row(["map", "building", "keyframes", "points", "build s", "build MB", "file MB", "load s", "ready s",
                    "resident MB", "B/point", "heap MB"], widths: mapWidths)
        for r in results {
            let p = r.probe
            out += row([r.label, r.building ?? "-", p.map { "\($0.keyframes)" } ?? "-", p.map { "\($0.points)" } ?? "-",
                        r.build.map { f1($0.wallSeconds) } ?? "-", r.build.map { f0(Double($0.peakResidentBytes) / 1e6) } ?? "-",
                        p.map { f1(Double($0.fileBytes) / 1e6) } ?? "-", p.map { f2($0.loadSeconds) } ?? "-",
                        p.map { f2($0.readySeconds) } ?? "-", p.map { f0(Double($0.residentBytes) / 1e6) } ?? "-",
                        p.map { $0.points > 0 ? f0(Double($0.residentBytes) / Double($0.points)) : "-" } ?? "-",
                        p.map { f0(Double($0.heapBytes) / 1e6) } ?? "-"], widths: mapWidths)
        }
        out += "\nwithin (5 cm, 2°)      walk single  walk track  hard single  hard track   wrong\n"
        for r in results {
            guard let p = r.probe else { continue }
            func cell(_ session: String, _ mode: String) -> String {
                guard let run = p.runs.first(where: { $0.session == session && $0.mode == mode }), run.frames > 0 else { return "-" }
                return String(format: "%.1f %%", 100 * Double(run.within) / Double(run.frames))
            }
            let wrong = p.runs.reduce(0) { $0 + $1.wrong }, frames = p.runs.reduce(0) { $0 + $1.frames }
            out += row([r.label, cell("walk", "single-shot"), cell("walk", "tracking"), cell("hard", "single-shot"),
                        cell("hard", "tracking"), "\(wrong)/\(frames)"], widths: [20, 13, 12, 13, 12, 9])
        }
        for mode in ["single-shot", "tracking"] {
            out += "\nmedian ms per frame, \(mode) (walk and hard); gallery: the baseline's total, in turn\n"
            let names = ScaleProbe.stages
            out += row(["map"] + names + ["gallery", "ratio"], widths: stageWidths)
            for r in results {
                guard let p = r.probe?.p50[mode] else { continue }
                var cells = [r.label] + names.map { f2(p[$0] ?? 0) }
                // The baseline's total, measured in turn with this map's frames, and the ratio.
                let base = r.probe?.baselineP50?[mode]?["total"]
                cells.append(base.map(f2) ?? "-")
                cells.append(base.flatMap { $0 > 0 ? (p["total"] ?? 0) / $0 : nil }.map { String(format: "%.2fx", $0) } ?? "-")
                out += row(cells, widths: stageWidths)
            }
        }
        let failures = results.filter { $0.failure != nil }
        if !failures.isEmpty {
            out += "\nfailed:\n" + failures.map { "  \($0.label): \($0.failure!)\n" }.joined()
        }
        out += "\n" + definitions.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: "\n")
        return out
    }

    private static let mapWidths = [20, 9, 10, 9, 8, 9, 8, 7, 8, 12, 8, 8]
    /// The map's label, one column per stage (`ScaleProbe.stages`), the baseline's total and the ratio.
    private static let stageWidths = [20] + ScaleProbe.stages.map { _ in 8 } + [8, 7]

    /// One line of `cells`, each right-aligned in its width (the first left-aligned); a
    /// cell beyond `widths` gets 8 columns rather than being dropped.
    private static func row(_ cells: [String], widths: [Int]) -> String {
        cells.enumerated().map { i, cell in
            let width = i < widths.count ? widths[i] : 8
            let pad = String(repeating: " ", count: max(0, width - cell.count))
            return i == 0 ? cell + pad : pad + cell
        }.joined(separator: " ") + "\n"
    }

    private static func f0(_ v: Double) -> String { String(format: "%.0f", v) }
    private static func f1(_ v: Double) -> String { String(format: "%.1f", v) }
    private static func f2(_ v: Double) -> String { String(format: "%.2f", v) }
}
