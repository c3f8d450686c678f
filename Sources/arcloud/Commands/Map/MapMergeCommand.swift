import Foundation
import MapBuilding
import MapModel
import Storage
import Support
import VPSModel

struct MapMergeCommand: Command {
    static let name = "map merge"
    static let summary = "Join maps captured separately into one venue map, each placed where it lies"
    static let overview = """
        USAGE: arcloud map merge <out.vpsmap> <map.vpsmap>[@x,y,z[,yaw]] ... [--name NAME]

        Places each map by a translation (x,y,z in the venue's units) and a turn of yaw
        degrees about its up axis (counter-clockwise seen from above), carries over its
        points, keyframes, observations, sections, AR objects and navigation graph (ids
        prefixed with the map's name: gallery/room-1), and trains one vocabulary on all of
        them, so that place search ranks every part on one scale. A map given without a
        placement stays where it is. The maps must share units and a known or unknown up.
        """

    static let epilogue = """
        EXAMPLE:
          arcloud map merge out/venue.vpsmap Maps/gallery.vpsmap out/east.vpsmap@100,0,0,90
        """

    struct Options: CommandArguments {
        let out = Positional("out.vpsmap")
        let parts = Positional(zeroOrMore: "map.vpsmap[@x,y,z[,yaw]]")
        let name = Option("name", .text.placeholder("<name>"), help: "The venue map's name (default: the output file's name)")
    }

    static func run(_ args: ParsedArguments<Options>) async throws -> Int32 {
        let out = args.out
        guard !args.parts.isEmpty else { throw CommandFailure("give at least one map to merge") }
        try OutputLocation.checkFile(out, for: "<out.vpsmap>")
        var parts: [MapMerger.Part] = []
        for text in args.parts {
            let part = MapMerger.PartArgument(text)
            let map: VPSMap
            do { map = try VPSMap.load(from: part.path) } catch let e as MapFileError { throw CommandFailure(e.description) }
            do {
                parts.append(MapMerger.Part(map: map, placement: try part.pose(up: map.metadata.up),
                                            name: MapMerger.uniqueName(map.metadata.name, path: part.path,
                                                                       taken: parts.map(\.name))))
            } catch { throw CommandFailure(error.description) }
        }
        let venueName = args.name ?? URL(fileURLWithPath: out).deletingPathExtension().lastPathComponent
        let clock = ContinuousClock.now
        let merged: VPSMap
        do { merged = try MapMerger().merge(parts, name: venueName) } catch let e as MapMerger.Refusal {
            throw CommandFailure(e.description)
        }
        do { try merged.write(to: out) } catch let e as MapFileError { throw CommandFailure(e.description) }
        let seconds = (ContinuousClock.now - clock).seconds
        print("\(out): \(parts.count) maps, \(merged.keyframes.count) keyframes, \(merged.points.count) points, "
              + "\(merged.scene.sections.count) sections, \(merged.vocabulary?.wordCount ?? 0) words "
              + "(\(String(format: "%.1f", seconds)) s)")
        return 0
    }
}
