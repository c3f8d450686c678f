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
        units (metres or unknown) and up direction (a vector or unknown), the georeference
        (where the map lies on the earth, how it was found, the fit's residuals), file size and
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
        let start = ContinuousClock.now
        let map: VPSMap
        do { map = try VPSMap.load(from: path) } catch let e as MapFileError { throw CommandFailure(e.description) }
        let loadTime = ContinuousClock.now - start
        let stats = MapStatistics(map)
        if args.json {
            try printJSON(stats)
        } else {
            let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
            print(stats.text(for: map, path: path, fileBytes: size, loadSeconds: loadTime.seconds))
        }
        return 0
    }
}
