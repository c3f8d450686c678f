import Foundation
import MapModel
import Storage
import VPSModel

struct MapSceneExportCommand: Command {
    static let name = "map scene export"
    static let summary = "Write a map's sections, AR objects and navigation graph as JSON"
    static let overview = """
        USAGE: arcloud map scene export <map.vpsmap> [--out <scene.json>]

        Writes the map's scene content — sections (with bounds), AR objects (graffiti,
        collectibles, links: pose, extent, payload) and the navigation graph (nodes, edges) —
        as JSON with sorted keys: the format `map scene import` reads back and
        `GET /v1/maps/{id}/scene` serves. Edit it and import it to author AR content.
        """

    static let epilogue = """
        EXAMPLE:
          arcloud map scene export Maps/gallery.vpsmap --out gallery-scene.json
        """

    struct Options: CommandArguments {
        let map = Positional("map.vpsmap")
        let out = Option("out", .text.placeholder("<file>"),
                         help: "Write to this file (atomically) instead of standard output")
    }

    static func run(_ args: ParsedArguments<Options>) async throws -> Int32 {
        let path = args.map
        // A folder that is missing or not writable (/proc) fails here, in one line naming it.
        if let out = args.out { try OutputLocation.checkFile(out, for: "--out") }
        let scene: SceneContent
        do { scene = try VPSMap.loadScene(from: path) } catch let e as MapFileError { throw CommandFailure(e.description) }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        var data = try encoder.encode(scene)
        data.append(0x0A)
        if let out = args.out {
            do {
                try AtomicFileReplacement.replace(out) { tmp in try data.write(to: URL(fileURLWithPath: tmp)) }
            } catch {
                throw CommandFailure("--out '\(out)': cannot write (\(RegularFile.reason(error)))")
            }
            FileHandle.standardError.write(Data(("wrote \(out): \(scene.sections.count) sections, \(scene.objects.count) objects, "
                + "\(scene.navigation.nodes.count) navigation nodes, \(scene.navigation.edges.count) edges\n").utf8))
        } else {
            FileHandle.standardOutput.write(data)
        }
        return 0
    }
}
