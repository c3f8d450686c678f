import Foundation
import Geodesy
import SceneSynthesis
import VPSModel

struct DatasetSynthCommand: Command {
    static let name = "dataset synth"
    static let summary = "Render a recorded session of a synthetic textured scene (rooms or a street)"
    static let overview = """
        USAGE: arcloud dataset synth <out-dir> [options]

        Renders a walking camera through a procedurally textured scene of connected rooms
        and corridors (walls with posters and graffiti-like art, floors, ceilings,
        doorways), or down a street (--layout street), and writes a recorded session:
        session.json (intrinsics, ground-truth poses, drifting device odometry), frames/,
        and scene.json (planes, sections, AR content, navigation graph). The same options
        always give byte-identical files.
        """

    static let epilogue = """
        A building repeats what real ones do: rooms of one size, the same floors (tiles in
        corridors and halls, boards in rooms) and ceiling panels everywhere, the same
        posters and doors on many walls; each room's walls keep art of their own. Its routes: mapping covers every floor
        (hall, corridors, two loops per room; the capture pauses between floors); walk,
        hard and tour stay in the first wing of the ground floor (walk: its rooms in
        reverse, at most four; hard: its first two rooms; tour: its first room). Rooms
        0 and 1 face each other nearest the hall, then 2 and 3, and so on.

        A street is outdoors and walked forward, as a phone records one: 13-15 m between
        two rows of buildings 10-20 m high, 124 m long, in terraces that share a facade
        design: a grid of windows each a little different (curtains, blinds, a lit room, a
        repainted frame, flower boxes) over shop fronts with signs or front doors, on a
        road between slab pavements. The rows end 8 m past the routes at a plaza, with a
        skyline of far buildings 50-300 m beyond the routes' end, seen down the street
        from every frame (their depth is nearly unobservable from a forward walk). No
        ceiling; a plain sky. Its routes are forward walks at phone height along 96 m of
        the street: mapping on one line, level, with a mild sway; walk 2 m beside it over
        the same stretch, tilted up a little, glancing 22-32 degrees at the facades three
        times, lit as at another time of day; hard the walk faster, with hand shake, blur,
        noise and a light change; tour its first 20 m.

        EXAMPLES:
          arcloud dataset synth out/gallery-mapping --seed 7 --trajectory mapping --frames 150
          arcloud dataset synth out/venue-mapping --layout building --floors 2 --wings 3 --rooms 6
          arcloud dataset synth out/street-mapping --layout street --seed 5 --trajectory mapping --frames 90
        """

    struct Options: CommandArguments {
        /// The generator's own defaults, which the help states.
        private static let defaults = SyntheticSessionOptions(name: "")

        let out = Positional("out-dir")
        let name = Option("name", .text.placeholder("NAME"), help: "Session name", defaultText: "the folder name")
        let layout = Option("layout", .oneOf(SceneLayout.presetNames).placeholder("NAME"), default: defaults.layout,
                            help: "Floor plan: gallery (3 rooms, 2 corridors) | studio (2 rooms) | building | street "
                                + "(outdoors; both below)")
        let floors = Option("floors", .integer(in: BuildingSize.floorRange).placeholder("N"), default: defaults.building.floors,
                            help: "building: storeys, 4 m apart")
        let wings = Option("wings", .integer(in: BuildingSize.wingRange).placeholder("N"), default: defaults.building.wings,
                           help: "building: wings per storey, each a corridor off the hall")
        let rooms = Option("rooms", .integer(in: BuildingSize.roomRange).placeholder("N"), default: defaults.building.rooms,
                           help: "building: rooms per wing, 6 x 5 m, on both sides of its corridor")
        let seed = Option("seed", .integer().placeholder("N"), default: defaults.sceneSeed,
                          help: "Scene seed: layout jitter, textures, AR content")
        let sessionSeed = Option("session-seed", .integer().placeholder("N"), default: defaults.sessionSeed,
                                 help: "Route phases, sensor noise, odometry drift")
        let trajectory = Option("trajectory", .oneOf(SyntheticSessionOptions.Route.self) { route in
            switch route {
            case .mapping: "two loops per room looking at every wall (street: a forward walk)"
            case .walk: "rooms in reverse, one loop per room in between (street: another forward walk)"
            case .hard: "fast, shaky, blurred, lights dim half-way"
            case .tour: "a short loop in the first room (street: its first 20 m)"
            }
        }.placeholder("ROUTE"), default: defaults.route, help: "The camera's route")
        let frames = Option("frames", .integer(in: 1...100_000).placeholder("N"), default: defaults.frameCount,
                            help: "Number of frames, spread evenly in time",
                            defaultNote: "for a building's mapping route one per 1.06 s of walking, as in gallery "
                                + "mapping; 70 on its other routes")
        let size = Option("size", .imageSize(sides: 32...8192), default: ImageSize(width: defaults.width, height: defaults.height),
                          help: "Image size")
        let fov = Option("fov", .number().placeholder("DEG"), default: defaults.horizontalFieldOfViewDegrees,
                         help: "Horizontal field of view")
        let effects = Option("effects", .number().placeholder("K"), default: defaults.effectsStrength,
                             help: "Noise, blur, vignetting and exposure strength; 0 = clean")
        let motionBlur = Option("motion-blur", .number().placeholder("K"), default: defaults.motionBlur,
                                help: "Exposure time relative to the route's (14 ms on hard, 8 ms on the others, "
                                    + "times --effects); 0 = sharp frames on the same route, noise and light")
        let format = Option("format", .oneOf(SyntheticSessionOptions.ImageFormat.self), default: defaults.imageFormat,
                            help: "Frame image format")
        let quality = Option("quality", .integer(in: 1...100).placeholder("Q"), default: defaults.jpegQuality,
                             help: "JPEG quality 1-100")
        let textures = Option("textures", .text.placeholder("DIR"),
                              help: "Use the .jpg/.png images of DIR (sorted, in turn) as textures instead of procedural ones")
        let textureScale = Option("texture-scale", .number().placeholder("K"), default: defaults.textureScale,
                                  help: "Texture density relative to 256 px/m on walls (128 on a street's facades)")
        let noCeiling = Flag("no-ceiling", help: "Leave the ceilings out (a street has none)")
        let georef = Option("georef", .text.placeholder("LAT,LON,H,HEADING"),
                            help: "Place the scene on the earth: its origin at this WGS 84 position, its +x axis at "
                                + "this compass bearing; every frame then carries a GPS reading (session.json 'gps')")
        let gpsNoise = Option("gps-noise", .number().placeholder("M"), default: defaults.gpsNoise,
                              help: "With --georef: the GPS readings' horizontal accuracy, metres (the radius "
                                  + "holding 95 % of them, as phones state it; heights twice as noisy)")
    }

    static func run(_ args: ParsedArguments<Options>) async throws -> Int32 {
        let out = URL(fileURLWithPath: args.out, isDirectory: true)
        var o = SyntheticSessionOptions(name: args.name ?? out.lastPathComponent)
        o.layout = args.layout
        o.sceneSeed = args.seed
        o.sessionSeed = args.sessionSeed
        o.route = args.trajectory
        let building = [("floors", args.isGiven(\.floors)), ("wings", args.isGiven(\.wings)), ("rooms", args.isGiven(\.rooms))]
        if o.layout == "building" {
            o.building = BuildingSize(floors: args.floors, wings: args.wings, rooms: args.rooms)
        } else if let first = building.first(where: \.1) {
            throw UsageError("option '--\(first.0)' goes with --layout building")
        }
        o.frameCount = args.frames
        o.width = args.size.width; o.height = args.size.height
        o.horizontalFieldOfViewDegrees = args.fov
        o.effectsStrength = args.effects
        o.motionBlur = args.motionBlur
        o.imageFormat = args.format
        o.jpegQuality = args.quality
        o.textureFolder = args.textures.map { URL(fileURLWithPath: $0, isDirectory: true) }
        o.ceilings = !args.noCeiling
        o.textureScale = args.textureScale
        if let text = args.georef {
            do {
                let (origin, heading) = try GeodeticPosition.parse(text, heading: true)
                o.georeference = try Georeference.manual(origin: origin, headingDegrees: heading!)
            } catch { throw UsageError("option '--georef': \(error)") }
        } else if args.isGiven(\.gpsNoise) {
            throw UsageError("option '--gps-noise' goes with --georef")
        }
        o.gpsNoise = args.gpsNoise
        if let p = o.problem { throw UsageError(p) }

        var generator = try SyntheticSessionGenerator(options: o)
        if o.layout == "building", !args.isGiven(\.frames) {
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
}
