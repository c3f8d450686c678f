import Foundation
import MapModel
import Storage
import Support

struct MapInspectCommand: Command {
    static let name = "map inspect"
    static let summary = "Print what a map holds: keyframes, points, errors, sections, scene"
    static let overview = """
        USAGE: arcloud map inspect <map.vpsmap> [--json]

        Loads the map (checking it as `localize` would) and prints: name, source, camera,
        units (metres or unknown) and up direction (a vector or unknown), file size and
        load time; keyframes, points, observations and the track-length
        histogram; the reprojection error of every observation (mean, median, 95th
        percentile, max) recomputed from the stored poses; the vocabulary (words, depth,
        points per word); sections with their point and keyframe counts; AR objects;
        navigation nodes and edges; the builder settings.
        """

    static let epilogue = """
        EXAMPLE:
          arcloud map inspect Maps/gallery.vpsmap
        """

    struct Options: CommandArguments {
        let map = Positional("map.vpsmap")
        let json = Flag("json", help: "Print the figures as one JSON object instead")
    }

    static func run(_ args: ParsedArguments<Options>) async throws -> Int32 {
        let path = args.map
        let clock = ContinuousClock()
        let start = clock.now
        let map: VPSMap
        do { map = try VPSMap.load(from: path) } catch let e as MapFileError { throw CommandFailure(e.description) }
        let loadTime = clock.now - start
        let stats = MapStatistics(map)
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        if args.json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
            print(String(decoding: try encoder.encode(stats), as: UTF8.self))
            return 0
        }
        let m = map.metadata
        var out: [String] = []
        out.append("map \(m.name.isEmpty ? "(unnamed)" : m.name): \(path), \(formatBytes(size)), loaded in "
                   + String(format: "%.3f s", seconds(loadTime)))
        out.append("  created \(m.created.formatted(.iso8601)) from \(m.source.isEmpty ? "?" : m.source)")
        if let c = m.camera {
            func f6(_ x: Double) -> String { String(format: "%.6g", x) }
            out.append("  camera \(c.width)x\(c.height) fx \(f6(c.fx)) fy \(f6(c.fy)) cx \(f6(c.cx)) cy \(f6(c.cy))"
                       + (c.distortion.isEmpty ? "" : " distortion \(c.distortion.map(f6).joined(separator: " "))"))
        }
        out.append("  units \(m.units), up \(m.up)")
        out.append("keyframes    \(stats.keyframes)")
        out.append("points       \(stats.points) (\(stats.viewDescriptors) view descriptors)")
        out.append("observations \(stats.observations) (mean track length \(fmt(stats.meanTrackLength)))")
        out.append("track lengths:")
        out += histogramLines(stats.trackLengthHistogram, total: stats.points)
        out.append("reprojection error (px): mean \(fmt(stats.meanReprojectionError)), median \(fmt(stats.medianReprojectionError)), "
                   + "95% \(fmt(stats.p95ReprojectionError)), max \(fmt(stats.maxReprojectionError))")
        out.append("vocabulary: \(stats.words) words, depth \(stats.vocabularyDepth); points per word mean "
                   + "\(fmt(stats.meanPointsPerWord)), max \(stats.maxPointsPerWord)")
        out.append("sections (\(stats.sections.count)):")
        for (s, section) in zip(stats.sections, map.scene.sections) {
            var line = "  \(s.id) \"\(s.name)\": \(s.points) points, \(s.keyframes) keyframes"
            if let lo = section.boundsMin, let hi = section.boundsMax {
                line += ", bounds [\(fmt(lo.x)) \(fmt(lo.y)) \(fmt(lo.z))]…[\(fmt(hi.x)) \(fmt(hi.y)) \(fmt(hi.z))]"
            }
            out.append(line)
        }
        let unassigned = map.points.sections.lazy.filter { $0 < 0 }.count
        if unassigned > 0 { out.append("  (\(unassigned) points in no section)") }
        out.append("objects (\(stats.objects)):")
        for o in map.scene.objects {
            let t = o.pose.translation
            let title = o.payload["title"] ?? o.payload["url"] ?? ""
            out.append("  \(o.id) \(o.kind.rawValue) in \(o.sectionId) at [\(fmt(t.x)) \(fmt(t.y)) \(fmt(t.z))]"
                       + (title.isEmpty ? "" : " \"\(title)\""))
        }
        out.append("navigation: \(stats.navigationNodes) nodes, \(stats.navigationEdges) edges")
        if !m.builder.isEmpty {
            out.append("builder: " + m.builder.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " "))
        }
        print(out.joined(separator: "\n"))
        return 0
    }

    static func histogramLines(_ h: [Int: Int], total: Int) -> [String] {
        // Buckets: 2, 3, 4, 5, 6–7, 8–10, 11–20, 21+ (and 1 or 0 if a map has them).
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
}

fileprivate func fmt(_ x: Double) -> String { String(format: "%.3g", x) }
fileprivate func seconds(_ d: Duration) -> Double { d.seconds }
fileprivate func formatBytes(_ n: Int) -> String {
    n >= 1_000_000 ? String(format: "%.1f MB", Double(n) / 1e6) : n >= 1000 ? String(format: "%.1f kB", Double(n) / 1e3) : "\(n) B"
}
