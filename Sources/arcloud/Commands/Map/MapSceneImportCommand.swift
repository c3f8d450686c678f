import Foundation
import MapModel
import Storage
import VPSModel

struct MapSceneImportCommand: Command {
    static let name = "map scene import"
    static let summary = "Replace a map's sections, AR objects and navigation graph from JSON"
    static let overview = """
        USAGE: arcloud map scene import <map.vpsmap> <scene.json>

        Reads scene content JSON (what `map scene export` writes; a dataset's scene.json
        works too) and replaces the map's sections, AR objects and navigation graph. The
        content is checked first: unique ids, objects and nodes in known sections, edges
        between known nodes, a `url` in every link's payload. Points and keyframes are
        re-assigned to the new sections (by bounds when every section has them, else by id).
        The map file is rewritten atomically: a failure leaves the old map as it was.

        EXAMPLE:
          arcloud map scene export Maps/gallery.vpsmap --out scene.json
          (edit scene.json)
          arcloud map scene import Maps/gallery.vpsmap scene.json
        """

    struct Options: CommandArguments {
        let map = Positional("map.vpsmap")
        let scene = Positional("scene.json")
    }

    static func run(_ args: ParsedArguments<Options>) async throws -> Int32 {
        let path = args.map
        let scenePath = args.scene
        let data: Data
        do { data = try RegularFile.read(URL(fileURLWithPath: scenePath)) } catch {
            throw CommandFailure("\(error)")
        }
        let scene: SceneContent
        do { scene = try JSONDecoder().decode(SceneContent.self, from: data) } catch let e as DecodingError {
            throw CommandFailure("not scene content JSON: \(DatasetProblem(e, fileName: scenePath))")
        }
        do {
            try VPSMap.replaceScene(in: path, with: scene)
        } catch let e as MapInconsistency {
            throw CommandFailure("\(scenePath): \(e.description); the map was not changed")
        } catch let e as MapFileError {
            throw CommandFailure(e.description)
        }
        print("\(path): scene replaced — \(scene.sections.count) sections, \(scene.objects.count) objects, "
              + "\(scene.navigation.nodes.count) navigation nodes, \(scene.navigation.edges.count) edges")
        return 0
    }
}
