import Foundation
import SceneSynthesis
import VPSModel

struct DatasetSynthCommand: Command {
    static let name = "dataset synth"
    static let summary = "Render a recorded session of a synthetic textured indoor scene"
    static let help = """
        USAGE: arcloud dataset synth <out-dir> [options]

        Renders a walking camera through a procedurally textured scene of connected rooms
        and corridors (walls with posters and graffiti-like art, floors, ceilings,
        doorways) and writes a recorded session: session.json (intrinsics, ground-truth
        poses, drifting device odometry), frames/, and scene.json (planes, sections, AR
        content, navigation graph). The same options always give byte-identical files.

        OPTIONS:
          --name NAME          Session name (default: the folder name)
          --layout NAME        Floor plan: gallery (3 rooms, 2 corridors) | studio (2 rooms)
                               | building (see below) (default: gallery)
          --floors N           building: storeys, 4 m apart (default: 1)
          --wings N            building: wings per storey, each a corridor off the hall
                               (default: 2)
          --rooms N            building: rooms per wing, 6 x 5 m, on both sides of its
                               corridor (default: 6)
          --seed N             Scene seed: layout jitter, textures, AR content (default: 1)
          --session-seed N     Route phases, sensor noise, odometry drift (default: 1)
          --trajectory ROUTE   mapping | walk | hard | tour (default: mapping)
                                 mapping: two loops per room looking at every wall
                                 walk:    rooms in reverse, one loop per room in between
                                 hard:    fast, shaky, blurred, lights dim half-way
                                 tour:    a short loop in the first room
          --frames N           Number of frames, spread evenly in time (default: 150; for
                               a building's mapping route one per 1.06 s of walking, as in
                               gallery mapping; 70 on its other routes)
          --size WxH           Image size (default: 640x480)
          --fov DEG            Horizontal field of view (default: 62)
          --effects K          Noise, blur, vignetting and exposure strength; 0 = clean
                               (default: 1)
          --format jpg|png     Frame image format (default: jpg)
          --quality Q          JPEG quality 1-100 (default: 85)
          --textures DIR       Use the .jpg/.png images of DIR (sorted, in turn) as
                               textures instead of procedural ones
          --texture-scale K    Texture density relative to 256 px/m on walls (default: 1)
          --no-ceiling         Leave the ceilings out

        A building repeats what real ones do: rooms of one size, the same floors (tiles in
        corridors and halls, boards in rooms) and ceiling panels everywhere, the same
        posters and doors on many walls; each room's walls keep art of their own. Its routes: mapping covers every floor
        (hall, corridors, two loops per room; the capture pauses between floors); walk,
        hard and tour stay in the first wing of the ground floor (walk: its rooms in
        reverse, at most four; hard: its first two rooms; tour: its first room). Rooms
        0 and 1 face each other nearest the hall, then 2 and 3, and so on.

        EXAMPLES:
          arcloud dataset synth out/gallery-mapping --seed 7 --trajectory mapping --frames 150
          arcloud dataset synth out/venue-mapping --layout building --floors 2 --wings 3 --rooms 6
        """
    static let options: Set<String> = ["name", "layout", "seed", "session-seed", "trajectory", "frames", "size",
                                       "fov", "effects", "format", "quality", "textures", "texture-scale",
                                       "floors", "wings", "rooms"]
    static let switches: Set<String> = ["no-ceiling"]

    static func run(_ args: Arguments) async throws -> Int32 {
        try args.noExtraPositionals(beyond: 1)
        let out = URL(fileURLWithPath: try args.positional(0, "out-dir"), isDirectory: true)
        var o = SyntheticSessionOptions(name: args.value("name") ?? out.lastPathComponent)
        o.layout = try args.choice("layout", SceneLayout.presetNames, default: "gallery")
        o.sceneSeed = try seed(args, "seed")
        o.sessionSeed = try seed(args, "session-seed")
        o.route = SyntheticSessionOptions.Route(rawValue: try args.choice(
            "trajectory", SyntheticSessionOptions.Route.allCases.map(\.rawValue), default: "mapping"))!
        let building = ["floors", "wings", "rooms"].filter { args.value($0) != nil }
        if o.layout == "building" {
            o.building = BuildingSize(floors: try args.int("floors", default: 1, range: BuildingSize.floorRange),
                                      wings: try args.int("wings", default: 2, range: BuildingSize.wingRange),
                                      rooms: try args.int("rooms", default: 6, range: BuildingSize.roomRange))
        } else if let first = building.first {
            throw UsageError("option '--\(first)' goes with --layout building")
        }
        o.frameCount = try args.int("frames", default: 150, range: 1...100_000)
        if let size = args.value("size") {
            let parts = size.lowercased().split(separator: "x").compactMap { Int($0) }
            guard parts.count == 2, (32...8192).contains(parts[0]), (32...8192).contains(parts[1]) else {
                throw UsageError("option '--size' needs WxH with sides 32...8192, got '\(size)'")
            }
            o.width = parts[0]; o.height = parts[1]
        }
        o.horizontalFieldOfViewDegrees = try args.double("fov", default: 62)
        o.effectsStrength = try args.double("effects", default: 1)
        o.imageFormat = SyntheticSessionOptions.ImageFormat(rawValue: try args.choice("format", ["jpg", "png"], default: "jpg"))!
        o.jpegQuality = try args.int("quality", default: 85, range: 1...100)
        o.textureFolder = args.value("textures").map { URL(fileURLWithPath: $0, isDirectory: true) }
        o.ceilings = !args.has("no-ceiling")
        o.textureScale = try args.double("texture-scale", default: 1)
        if let p = o.problem { throw UsageError(p) }

        var generator = try SyntheticSessionGenerator(options: o)
        if o.layout == "building", args.value("frames") == nil {
            o.frameCount = o.route == .mapping ? min(100_000, generator.framesAtMappingDensity()) : 70
            generator = try SyntheticSessionGenerator(options: o)
        }
        let summary: SyntheticSessionGenerator.Summary
        try OutputLocation.prepareFolder(out.path, for: "<out-dir>")
        do { summary = try await generator.generate(to: out) } catch {
            throw CommandFailure("cannot generate \(out.path): \(error)")
        }
        print("\(out.path): \(summary.frames) frames, "
              + String(format: "%.1f m in %.1f s of walking, %.1f MB, rendered in %.1f s",
                       summary.pathLength, summary.duration, Double(summary.bytes) / 1e6, summary.seconds))
        return 0
    }

    private static func seed(_ args: Arguments, _ name: String) throws -> UInt64 {
        guard let s = args.value(name) else { return 1 }
        guard let v = UInt64(s) else { throw UsageError("option '--\(name)' needs a whole number ≥ 0, got '\(s)'") }
        return v
    }
}
