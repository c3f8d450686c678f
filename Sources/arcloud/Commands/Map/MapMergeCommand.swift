import Foundation
import Geometry
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
            let (path, placementText) = splitPlacement(text)
            let map: VPSMap
            do { map = try VPSMap.load(from: path) } catch let e as MapFileError { throw CommandFailure(e.description) }
            let placement = try placementText.map { try parsePlacement($0, up: map.metadata.up, of: text) } ?? .identity
            // Two parts from files of the same name (a/map.vpsmap, b/map.vpsmap) keep apart by their folder.
            var name = map.metadata.name
            if parts.contains(where: { $0.name == name }) {
                name = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
                if parts.contains(where: { $0.name == name }) { name += "-\(parts.count + 1)" }
            }
            parts.append(MapMerger.Part(map: map, placement: placement, name: name))
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

    /// `path@x,y,z,yaw` → (path, "x,y,z,yaw"); a path may itself hold '@' before the last one.
    static func splitPlacement(_ text: String) -> (String, String?) {
        guard let at = text.lastIndex(of: "@"), !text[text.index(after: at)...].contains("/") else { return (text, nil) }
        return (String(text[..<at]), String(text[text.index(after: at)...]))
    }

    static func parsePlacement(_ text: String, up: MapUpDirection, of part: String) throws -> Pose {
        let values = text.split(separator: ",", omittingEmptySubsequences: false)
            .map { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard values.count == 3 || values.count == 4, values.allSatisfy({ $0?.isFinite == true }) else {
            throw CommandFailure("'\(part)': a placement is @x,y,z or @x,y,z,yaw (numbers), got '@\(text)'")
        }
        let t = SIMD3(values[0]!, values[1]!, values[2]!)
        guard values.count == 4, values[3]! != 0 else { return Pose(rotation: .identity, translation: t) }
        guard let axis = up.vector else {
            throw CommandFailure("'\(part)': a yaw needs the map's up, and this map's is unknown (map build --up)")
        }
        return Pose(rotation: Quaternion(axis: axis, angle: values[3]! * .pi / 180), translation: t)
    }
}
