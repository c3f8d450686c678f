import Foundation
import Geodesy

extension MapStatistics {
    /// The text `arcloud map inspect` prints for `map` (these are its figures), read from
    /// `path`, `fileBytes` long, loaded in `loadSeconds`: name, source, camera, units,
    /// up and feature type; counts and the track-length histogram; reprojection errors (px); vocabulary;
    /// sections with bounds; AR objects; navigation; builder settings.
    public func text(for map: VPSMap, path: String, fileBytes: Int, loadSeconds: Double) -> String {
        let m = map.metadata
        var out: [String] = []
        out.append("map \(m.name.isEmpty ? "(unnamed)" : m.name): \(path), \(Self.formatBytes(fileBytes)), loaded in "
                   + String(format: "%.3f s", loadSeconds))
        out.append("  created \(m.created.formatted(.iso8601)) from \(m.source.isEmpty ? "?" : m.source)")
        if let c = m.camera {
            func f6(_ x: Double) -> String { String(format: "%.6g", x) }
            out.append("  camera \(c.width)x\(c.height) fx \(f6(c.fx)) fy \(f6(c.fy)) cx \(f6(c.cx)) cy \(f6(c.cy))"
                       + (c.distortion.isEmpty ? "" : " distortion \(c.distortion.map(f6).joined(separator: " "))"))
        }
        out.append("  units \(m.units), up \(m.up), \(m.featureType.name) features")
        out.append("  georeference " + (m.georeference.map(\.description)
                                        ?? "none (answers in map coordinates only; arcloud map georef sets one)"))
        out.append("keyframes    \(keyframes)")
        out.append("points       \(points) (\(viewDescriptors) view descriptors"
                   + (simulatedViewDescriptors > 0 ? ", \(simulatedViewDescriptors) from simulated views)" : ")"))
        out.append("observations \(observations) (mean track length \(Self.fmt(meanTrackLength)))")
        out.append("track lengths:")
        out += Self.histogramLines(trackLengthHistogram, total: points)
        out.append("reprojection error (px): mean \(Self.fmt(meanReprojectionError)), median "
                   + "\(Self.fmt(medianReprojectionError)), 95% \(Self.fmt(p95ReprojectionError)), max "
                   + "\(Self.fmt(maxReprojectionError))")
        out.append("vocabulary: \(words) words, depth \(vocabularyDepth); points per word mean "
                   + "\(Self.fmt(meanPointsPerWord)), max \(maxPointsPerWord)")
        out.append("sections (\(sections.count)):")
        for (s, section) in zip(sections, map.scene.sections) {
            var line = "  \(s.id) \"\(s.name)\": \(s.points) points, \(s.keyframes) keyframes"
            if let lo = section.boundsMin, let hi = section.boundsMax {
                line += ", bounds [\(Self.fmt(lo.x)) \(Self.fmt(lo.y)) \(Self.fmt(lo.z))]…"
                    + "[\(Self.fmt(hi.x)) \(Self.fmt(hi.y)) \(Self.fmt(hi.z))]"
            }
            out.append(line)
        }
        let unassigned = map.points.sections.lazy.filter { $0 < 0 }.count
        if unassigned > 0 { out.append("  (\(unassigned) points in no section)") }
        out.append("objects (\(objects)):")
        for o in map.scene.objects {
            let t = o.pose.translation
            let title = o.payload["title"] ?? o.payload["url"] ?? ""
            out.append("  \(o.id) \(o.kind.rawValue) in \(o.sectionId) at [\(Self.fmt(t.x)) \(Self.fmt(t.y)) \(Self.fmt(t.z))]"
                       + (title.isEmpty ? "" : " \"\(title)\""))
        }
        out.append("navigation: \(navigationNodes) nodes, \(navigationEdges) edges")
        if !m.builder.isEmpty {
            out.append("builder: " + m.builder.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " "))
        }
        return out.joined(separator: "\n")
    }

    /// The track-length histogram as bars: buckets 2, 3, 4, 5, 6–7, 8–10, 11–20, 21+ (and
    /// 0–1 when a map has such points), each with its count, its share of `total` and a bar
    /// of up to 40 `#` scaled to the largest bucket.
    public static func histogramLines(_ h: [Int: Int], total: Int) -> [String] {
        let buckets: [(String, ClosedRange<Int>)] = [("0-1", 0...1), ("2", 2...2), ("3", 3...3), ("4", 4...4), ("5", 5...5),
                                                     ("6-7", 6...7), ("8-10", 8...10), ("11-20", 11...20),
                                                     ("21+", 21...Int.max)]
        let counts = buckets.map { b in h.filter { b.1.contains($0.key) }.values.reduce(0, +) }
        let peak = max(counts.max() ?? 1, 1)
        return zip(buckets, counts).compactMap { b, c in
            if c == 0 && b.0 == "0-1" { return nil }
            let bar = String(repeating: "#", count: Int((Double(c) / Double(peak) * 40).rounded(.up)))
            let pct = total == 0 ? 0 : Double(c) / Double(total) * 100
            return "  " + b.0.padding(toLength: 6, withPad: " ", startingAt: 0)
                + String(format: "%8d %5.1f%% ", c, pct) + bar
        }
    }

    private static func fmt(_ x: Double) -> String { String(format: "%.3g", x) }

    private static func formatBytes(_ n: Int) -> String {
        n >= 1_000_000 ? String(format: "%.1f MB", Double(n) / 1e6)
            : n >= 1000 ? String(format: "%.1f kB", Double(n) / 1e3) : "\(n) B"
    }
}
