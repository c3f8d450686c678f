import Foundation
import Support
import Vision

/// The text `bench real` prints: per split and method, placed/queries, wrong, accepted,
/// accepted within their own claim, map points and mean milliseconds per query; the
/// totals; with `--frames`, every query's outcome.
public enum RealPhotoTable {
    /// Columns of one method: placed, wrong, accepted, within claim, map points, ms per query.
    private static let columnWidth = 47

    /// The line before the table: OpenCV's version and what placed and wrong mean.
    public static var headline: String {
        "bench real: OpenCV \(openCVVersion), one thread per method; placed = within (2°, 2 % of the scene scale), "
            + "wrong = accepted and off by more than 10° or 10 %"
    }

    /// The two header lines, for methods named `methods`.
    public static func header(_ methods: [String]) -> String {
        pad("", 36) + methods.map { " | " + pad($0, columnWidth, left: false) }.joined() + "\n"
            + pad("split", 32, left: false) + pad("map", 4)
            + methods.map { _ in
                " | " + pad(pad("placed", 7) + pad("wrong", 6) + pad("acc", 5) + pad("in claim", 9) + pad("points", 8)
                            + pad("ms/frame", 10), columnWidth, left: false)
            }.joined()
    }

    /// One split's line.
    public static func row(_ r: RealPhotoSplitResult) -> String {
        pad("\(r.scene)/\(r.split)", 32, left: false) + pad("\(r.mapPhotos)", 4)
            + r.methods.map { " | " + pad(cell($0), columnWidth, left: false) }.joined()
    }

    /// The totals over `results`, per method; empty for no split.
    public static func total(_ results: [RealPhotoSplitResult]) -> String {
        guard let first = results.first else { return "" }
        let totals = first.methods.indices.map { i -> String in
            let ms = results.map { $0.methods[i] }
            let placed = ms.map { $0.count(.success) }.reduce(0, +), queries = ms.map(\.frames.count).reduce(0, +)
            let wrong = ms.map { $0.count(.wrong) }.reduce(0, +), accepted = ms.map(\.accepted).reduce(0, +)
            let within = ms.compactMap(\.withinClaim)
            let claim = within.count == ms.count ? "\(within.reduce(0, +))/\(accepted)" : "-"
            let time = ms.map { $0.meanMilliseconds * Double($0.frames.count) }.reduce(0, +) / Double(max(queries, 1))
            return " | " + pad(pad("\(placed)/\(queries)", 7) + pad("\(wrong)", 6) + pad("\(accepted)", 5) + pad(claim, 9)
                               + pad("", 8) + pad(String(format: "%.1f", time), 10), columnWidth, left: false)
        }
        return pad("total (\(results.count) splits)", 36, left: false) + totals.joined() + geoPoseLines(results)
    }

    /// For splits whose photos carry EXIF GPS (the map is then georeferenced): how far
    /// arcloud's GeoPoses lie from each query photo's own reading, horizontally. Empty when
    /// no split has any.
    static func geoPoseLines(_ results: [RealPhotoSplitResult]) -> String {
        var lines: [String] = []
        var all: [Double] = []
        for r in results {
            guard let a = r.methods.first(where: { $0.method == "arcloud" }), !a.gpsDistances.isEmpty else { continue }
            let d = a.gpsDistances.sorted()
            all += d
            lines.append(String(format: "  %@/%@: median %.1f m, max %.1f m (%d photos)", r.scene, r.split,
                                Statistics.percentile(sorted: d, 50) ?? 0, d.last ?? 0, d.count))
        }
        guard !all.isEmpty else { return "" }
        return String(format: "\nGeoPose vs the photos' own EXIF GPS (arcloud, horizontal): median %.1f m over %d photos\n",
                      Statistics.median(all) ?? 0, all.count) + lines.joined(separator: "\n")
    }

    /// Every query's outcome under each method: verdict, errors, and for arcloud the
    /// evidence, the claim and the true inliers.
    public static func frameLines(_ methods: [RealPhotoBenchmark.MethodResult]) -> [String] {
        var lines: [String] = []
        for m in methods {
            lines.append("  \(m.method):")
            for f in m.frames {
                var line = "    \(f.name) \(f.verdict.rawValue)"
                if let d = f.rotationDegrees, let t = f.translationFraction { line += String(format: " %.2f° %.2f %%", d, 100 * t) }
                if let why = f.reason { line += " (\(why))" }
                if let c = f.candidateRotationDegrees, let t = f.candidateTranslationFraction {
                    line += String(format: "; candidate %.2f° %.2f %% off", c, 100 * t)
                }
                if let e = f.evidence {
                    line += String(format: " [NFA 10^%.1f, %d of %d global matches", e.log10NFA, e.globalInliers, e.globalMatches)
                    if e.rotationSigmaDegrees.isFinite {
                        line += String(format: ", σ %.2f° %.2f %%, residual scale %.2f", e.rotationSigmaDegrees,
                                       100 * e.positionSigma, e.residualScale)
                    }
                    if let c = e.coverage { line += ", explains \(c.explained)/\(c.expected) regions" }
                    line += "]"
                }
                if let a = f.accuracy, let t = f.claimedTranslationFraction, let within = f.withinClaim {
                    line += " claim \(String(format: "%.2f° %.2f %%", a.rotationDegrees, 100 * t)) "
                        + (within ? "(within)" : "(OUTSIDE)")
                }
                if let t = f.trueInliers { line += " true inliers \(t)" }
                lines.append(line)
            }
        }
        return lines
    }

    private static func cell(_ m: RealPhotoBenchmark.MethodResult) -> String {
        pad("\(m.count(.success))/\(m.frames.count)", 7) + pad("\(m.count(.wrong))", 6) + pad("\(m.accepted)", 5)
            + pad(m.withinClaim.map { "\($0)/\(m.accepted)" } ?? "-", 9) + pad("\(m.mapPoints)", 8)
            + pad(String(format: "%.1f", m.meanMilliseconds), 10)
    }

    private static func pad(_ s: String, _ n: Int, left: Bool = true) -> String {
        s.count >= n ? s : (left ? String(repeating: " ", count: n - s.count) + s : s + String(repeating: " ", count: n - s.count))
    }
}
