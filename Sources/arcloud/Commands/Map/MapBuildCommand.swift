import Foundation
import Formats
import MapModel
import MapBuilding
import Storage
import Support
import Vision
import VPSModel

struct MapBuildCommand: Command {
    static let name = "map build"
    static let summary = "Build a map from a posed recorded session, a COLMAP model or a nerfstudio capture"
    static let overview = """
        USAGE: arcloud map build --session <dir> --out <map.vpsmap> [options]
               arcloud map build --colmap <model-dir> [--images <dir>] --out <map.vpsmap> [options]
               arcloud map build --nerfstudio <transforms.json | folder> --out <map.vpsmap> [options]

        Builds a map from images with known poses: ORB features (or SIFT, --feature-type)
        on every keyframe (all cores), keyframe pairs chosen from the images (shared vocabulary words, viewing
        angle), the scene's depths measured on each keyframe's best pair, matching along
        epipolar lines within them (Hamming ratio test, mutual), multi-view tracks,
        triangulation kept by triangulation angle and reprojection error in pixels, tracks
        extended into the paired keyframes and re-triangulated over all observations, one
        descriptor per distinct viewing direction of each point (on a map of under 20
        photos, more from ASIFT's simulated views, searched only when those fail), a vocabulary with an
        inverted index for retrieval, and sections. No setting is a length: a model in any
        units builds the same map, scaled. Prints per-stage counts and timings on stderr
        and a summary on stdout. The map is written atomically: an interrupted build never
        damages an existing file at --out.

        Sessions: frames with a ground-truth pose are used. When the session folder has a
        scene.json, its sections (by bounds), AR objects and navigation graph go into the
        map; otherwise sections come from spatial clustering of the points.
        COLMAP: reads the model's cameras and registered images' poses, binary
        (cameras.bin, images.bin: COLMAP's default) or text (cameras.txt, images.txt);
        camera models SIMPLE_PINHOLE, PINHOLE, SIMPLE_RADIAL, RADIAL, OPENCV (fisheye
        models: undistort with colmap image_undistorter first); points3D is not used.
        nerfstudio: a transforms.json (Polycam, Record3D, KIRI, ns-process-data): each
        frame's camera-to-world transform_matrix (OpenGL camera axes, converted) and its
        intrinsics (per frame or top level; camera_angle_x alone works). A frame whose
        image is missing is an error naming it, unless --skip-missing.
        GPS: a session's frames' gps readings, or the photos' EXIF GPS (COLMAP, nerfstudio
        JPEGs), georeference the map (scale and a full rotation when units and up are
        unknown; a path along a line then takes its up from the cameras): docs/geo.md.

        Units and up: the map records the unit of its coordinates (metres or unknown) and
        which way is up in its frame (a vector or unknown); the localizer uses a frame's
        gravity only with a known up. Sessions are metres with +y up. A COLMAP model's scale
        and frame are arbitrary: its map is unknown/unknown unless --units and --up say so;
        so is a nerfstudio capture's.
        """

    static let epilogue = """
        EXAMPLES:
          arcloud map build --session Datasets/gallery-mapping --out Maps/gallery.vpsmap
          arcloud map build --colmap office/sparse/0 --out office.vpsmap --min-track 2
          arcloud map build --colmap office/sparse/0 --out office.vpsmap --units metres --up -y
          arcloud map build --nerfstudio capture/transforms.json --out room.vpsmap
          arcloud map build --session plaza --gcp plaza/ground_control_points.json --out plaza.vpsmap
        """

    struct Options: CommandArguments {
        /// The builder's own defaults, which the help states.
        private static let defaults = MapBuildOptions()

        let session = Option("session", .text.placeholder("<dir>"), help: "Recorded session folder (session.json + frames/)")
        let colmap = Option("colmap", .text.placeholder("<dir>"),
                            help: "COLMAP model folder, e.g. project/sparse/0 (binary or text)")
        let images = Option("images", .text.placeholder("<dir>"), help: "Image folder of the COLMAP model",
                            defaultText: "project/images for project/sparse/0, else <model>/../images")
        let nerfstudio = Option("nerfstudio", .text.placeholder("<path>"),
                                help: "nerfstudio transforms.json, or the folder holding it")
        let skipMissing = Flag("skip-missing", help: "With --nerfstudio: leave out frames whose image is missing")
        let out = Option.required("out", .text.placeholder("<file>"), help: "Map file to write (replaced atomically)")
        let scene = Option("scene", .text.placeholder("<file>"), help: "Scene description / scene content JSON",
                           defaultText: "<session>/scene.json")
        let noScene = Flag("no-scene", help: "Ignore the session's scene.json")
        let name = Option("name", .text.placeholder("<name>"), help: "Map name", defaultText: "the scene's or session's name")
        let stride = Option("stride", .integer(in: 1...1000).placeholder("<k>"), default: defaults.keyframeStride,
                            help: "Use every k-th posed frame")
        let features = Option("features", .integer(in: 100...20000), help: "ORB features per keyframe",
                              defaultText: "\(defaults.orb.featureCount), or more with fewer than 20 keyframes: 48,000 "
                                  + "spread over them, at most 6,000 each")
        let featureType = Option("feature-type", .oneOf(["orb", "sift"]).placeholder("<type>"), default: "orb",
                                 help: "Features of the map and of its queries: orb, or sift (binary SIFT: matches photos "
                                     + "taken far off the map's, for maps of few photos; about 10x ORB's time per query)")
        let minTrack = Option("min-track", .integer(in: 2...100), default: defaults.minTrackLength,
                              help: "Keyframes that must see a point")
        let maxError = Option("max-error", .number(greaterThan: 0).placeholder("<px>"), default: defaults.maxReprojectionError,
                              help: "Reprojection error allowed at pyramid level 0")
        let units = Option("units", unitsParser, help: "metres | unknown",
                           defaultText: "metres for a session, unknown for COLMAP and nerfstudio")
        let up = Option("up", upParser, help: "Up in the map frame: +x -x +y -y +z -z, a vector x,y,z, or unknown",
                        defaultText: "+y for a session, unknown for COLMAP and nerfstudio")
        let threads = Option("threads", .integer(in: 1...256), default: Cores.available,
                             help: "Threads", defaultText: "all cores")
        let affineViews = Flag("affine-views", help: "Also describe points from ASIFT's simulated views of their keyframes "
                                   + "(tilts √2 and 2 at four angles), on any map; default: on maps of few photos "
                                   + "(under 20, ORB), which are queried from far off them")
        let noAffineViews = Flag("no-affine-views", help: "Describe points from their photos alone, however few")
        let gcp = Option("gcp", .text.placeholder("<file>"), help: "OpenSfM ground_control_points.json: georeference the map "
                             + "from these surveyed points alone, not GPS (at least 3, each seen in 2 frames)")
        let gcpAccuracy = Option("gcp-accuracy", .number(in: 0.001...1000).placeholder("<m>"),
                                 default: defaults.controlPointAccuracy, help: "The points' survey accuracy, metres at 95 %")
        let quiet = Flag("quiet", help: "No stage lines on stderr")
    }

    /// `--units metres|unknown` (or `meters`, `m`).
    static let unitsParser = ValueParser<MapUnits>(placeholder: "<u>", refusing: "takes metres or unknown") { MapUnits(parsing: $0) }

    /// `--up +y`, `--up 0,-1,0`, `--up unknown`; the direction's own parser says what is wrong.
    static let upParser = ValueParser<MapUpDirection>(placeholder: "<dir>") { try MapUpDirection(parsing: $0) }

    static func run(_ args: ParsedArguments<Options>) async throws -> Int32 {
        let out = args.out
        try OutputLocation.checkFile(out, for: "--out")
        let source: MapBuildSource
        do {
            source = try MapBuildSource(session: args.session, colmap: args.colmap, images: args.images,
                                        nerfstudio: args.nerfstudio, skipMissing: args.skipMissing)
        } catch { throw UsageError(error.description) }
        let input = try MapBuildInput(source, scene: args.scene, noScene: args.noScene, controlPoints: args.gcp)
        for m in input.missing { FileHandle.standardError.write(Data("  skipped \(m): image missing\n".utf8)) }
        var options = MapBuildOptions(keyframeStride: args.stride, featureCount: args.features, minTrackLength: args.minTrack,
                                      maxReprojectionError: args.maxError, threads: args.threads,
                                      simulatedViews: try .from(affineViews: args.affineViews, noAffineViews: args.noAffineViews),
                                      featureType: FeatureType(rawValue: args.featureType)!)  // the parser's words
        options.controlPointAccuracy = args.gcpAccuracy

        let quiet = args.quiet
        func note(_ line: String) { if !quiet { FileHandle.standardError.write(Data("  \(line)\n".utf8)) } }
        let start = ContinuousClock.now
        let built: (map: VPSMap, report: MapBuildReport)
        do {
            built = try MapBuilder(options: options).build(frames: input.frames,
                                                           metadata: input.metadata(name: args.name, units: args.units, up: args.up),
                                                           scene: input.scene, controlPoints: input.controlPoints, log: note)
        } catch let e as MapBuildError {
            throw CommandFailure(e.description)
        }
        let writeStart = ContinuousClock.now
        do { try built.map.write(to: out) } catch let e as MapFileError { throw CommandFailure(e.description) }
        note("write: \(out) in \(String(format: "%.2f s", (ContinuousClock.now - writeStart).seconds))")
        if options.featureType == .orb, options.isFewPhotos(keyframes: built.map.keyframes.count) {
            note("a map of \(built.map.keyframes.count) photos: if its queries come from far off them (an object seen from "
                 + "all round), --feature-type sift may place more of them (docs/maps.md, \"SIFT maps\")")
        }

        print(built.report.summary(of: built.map, writtenTo: out, fileBytes: RegularFile.byteCount(atPath: out),
                                   seconds: (ContinuousClock.now - start).seconds))
        return 0
    }
}
