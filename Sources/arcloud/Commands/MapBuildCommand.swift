import Foundation
import Formats
import Localization
import MapBuilding
import Storage
import VPSModel
import Vision
import Support

struct MapBuildCommand: Command {
    static let name = "map build"
    static let summary = "Build a map from a posed recorded session, a COLMAP model or a nerfstudio capture"
    static let help = """
        USAGE: arcloud map build --session <dir> --out <map.vpsmap> [options]
               arcloud map build --colmap <model-dir> [--images <dir>] --out <map.vpsmap> [options]
               arcloud map build --nerfstudio <transforms.json | folder> --out <map.vpsmap> [options]

        Builds a map from images with known poses: ORB features on every keyframe (all
        cores), keyframe pairs chosen from the images (shared vocabulary words, viewing
        angle), the scene's depths measured on each keyframe's best pair, matching along
        epipolar lines within them (Hamming ratio test, mutual), multi-view tracks,
        triangulation kept by triangulation angle and reprojection error in pixels, tracks
        extended into the paired keyframes and re-triangulated over all observations, one
        descriptor per distinct viewing direction of each point, a vocabulary with an
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

        Units and up: the map records the unit of its coordinates (metres or unknown) and
        which way is up in its frame (a vector or unknown); the localizer uses a frame's
        gravity only with a known up. Sessions are metres with +y up. A COLMAP model's scale
        and frame are arbitrary: its map is unknown/unknown unless --units and --up say so;
        so is a nerfstudio capture's.

        OPTIONS:
          --session <dir>        Recorded session folder (session.json + frames/)
          --colmap <dir>         COLMAP model folder, e.g. project/sparse/0 (binary or text)
          --images <dir>         Image folder of the COLMAP model (default: project/images
                                 for project/sparse/0, else <model>/../images)
          --nerfstudio <path>    nerfstudio transforms.json, or the folder holding it
          --skip-missing         With --nerfstudio: leave out frames whose image is missing
          --out <file>           Map file to write (replaced atomically)
          --scene <file>         Scene description / scene content JSON (default: <session>/scene.json)
          --no-scene             Ignore the session's scene.json
          --name <name>          Map name (default: the scene's or session's name)
          --stride <k>           Use every k-th posed frame (default 1)
          --features <n>         ORB features per keyframe (default 2500, or more with fewer
                                 than 20 keyframes: 48,000 spread over them, at most 6,000 each)
          --min-track <n>        Keyframes that must see a point (default 2)
          --max-error <px>       Reprojection error allowed at pyramid level 0 (default 2.5)
          --units <u>            metres | unknown (default: metres for a session, unknown for
                                 COLMAP and nerfstudio)
          --up <dir>             Up in the map frame: +x -x +y -y +z -z, a vector x,y,z, or unknown
                                 (default: +y for a session, unknown for COLMAP and nerfstudio)
          --threads <n>          Threads (default: all cores)
          --quiet                No stage lines on stderr

        EXAMPLES:
          arcloud map build --session Datasets/gallery-mapping --out Maps/gallery.vpsmap
          arcloud map build --colmap office/sparse/0 --out office.vpsmap --min-track 2
          arcloud map build --colmap office/sparse/0 --out office.vpsmap --units metres --up -y
          arcloud map build --nerfstudio capture/transforms.json --out room.vpsmap
        """
    static let options: Set<String> = ["session", "colmap", "nerfstudio", "images", "out", "scene", "name", "stride",
                                       "features", "min-track", "max-error", "threads", "units", "up"]
    static let switches: Set<String> = ["no-scene", "quiet", "skip-missing"]

    static func run(_ args: Arguments) async throws -> Int32 {
        try args.noExtraPositionals(beyond: 0)
        let out = try args.require("out")
        try OutputLocation.checkFile(out, for: "--out")
        var options = MapBuildOptions()
        options.keyframeStride = try args.positiveInt("stride", default: 1, max: 1000)
        if args.value("features") != nil {
            options.orb.featureCount = try args.int("features", default: options.orb.featureCount, range: 100...20000)
            options.minFeaturesPerMap = 0
        }
        options.minTrackLength = try args.int("min-track", default: options.minTrackLength, range: 2...100)
        options.maxReprojectionError = try args.double("max-error", default: options.maxReprojectionError)
        if options.maxReprojectionError <= 0 { throw UsageError("option '--max-error' must be positive") }
        options.threads = try args.positiveInt("threads", default: ProcessInfo.processInfo.activeProcessorCount, max: 256)

        let units: MapUnits? = try args.value("units").map { text in
            guard let u = MapUnits(parsing: text) else {
                throw UsageError("option '--units' takes metres or unknown, got '\(text)'")
            }
            return u
        }
        let up: MapUpDirection? = try args.value("up").map { text in
            do { return try MapUpDirection(parsing: text) } catch { throw UsageError("option '--up': \(error)") }
        }

        let frames: [MapBuildFrame]
        let defaultUnits: MapUnits, defaultUp: MapUpDirection
        var sceneURL = args.value("scene").map { URL(fileURLWithPath: $0) }
        var defaultName: String
        var source: String
        let inputs = ["session", "colmap", "nerfstudio"].filter { args.value($0) != nil }
        if inputs.count > 1 { throw UsageError("give one of --session, --colmap, --nerfstudio, not " + inputs.map { "--" + $0 }.joined(separator: " and ")) }
        if args.has("skip-missing"), args.value("nerfstudio") == nil { throw UsageError("--skip-missing goes with --nerfstudio") }
        switch (args.value("session"), args.value("colmap")) {
        case (nil, nil) where args.value("nerfstudio") != nil:
            let path = args.value("nerfstudio")!
            if args.value("images") != nil { throw UsageError("--images goes with --colmap; nerfstudio image paths are relative to transforms.json") }
            let transforms = try NerfstudioTransforms.load(from: URL(fileURLWithPath: path), skipMissing: args.has("skip-missing"))
            for m in transforms.missing { FileHandle.standardError.write(Data("  skipped \(m): image missing\n".utf8)) }
            frames = MapBuildFrame.frames(of: transforms)
            defaultName = transforms.file.deletingLastPathComponent().lastPathComponent
            source = MapMetadata.portableSource("nerfstudio", path: path)
            // A capture's scale and frame are its app's own: unknown unless told.
            defaultUnits = .unknown
            defaultUp = .unknown
        case (let dir?, nil):
            if args.value("images") != nil { throw UsageError("--images goes with --colmap, not --session") }
            let url = URL(fileURLWithPath: dir, isDirectory: true)
            let session: RecordedSession
            do { session = try RecordedSession.load(from: url) } catch { throw CommandFailure("\(dir): \(error)") }
            do { frames = try MapBuildFrame.frames(of: session, in: url) } catch { throw CommandFailure("\(dir): \(error)") }
            if frames.isEmpty { throw CommandFailure("\(dir): no frame has a ground-truth pose; a map needs posed frames") }
            let sessionScene = url.appendingPathComponent(SceneDescription.fileName)
            if sceneURL == nil, !args.has("no-scene"), FileManager.default.fileExists(atPath: sessionScene.path) {
                sceneURL = sessionScene
            }
            defaultName = session.name
            source = MapMetadata.portableSource("session", path: dir)
            // Sessions are gravity-aligned in metres (the generator; recordings are validated so).
            defaultUnits = .metres
            defaultUp = .plusY
        case (nil, let model?):
            let modelURL = URL(fileURLWithPath: model, isDirectory: true)
            let images = args.value("images").map { URL(fileURLWithPath: $0, isDirectory: true) }
                ?? COLMAPModel.defaultImageFolder(for: modelURL)
            do {
                frames = try MapBuildFrame.frames(of: try COLMAPModel.load(from: modelURL), images: images)
            } catch {
                throw CommandFailure("\(error)")
            }
            defaultName = modelURL.lastPathComponent
            source = MapMetadata.portableSource("colmap", path: model)
            // A reconstruction's scale and frame are arbitrary.
            defaultUnits = .unknown
            defaultUp = .unknown
        case (nil, nil): throw UsageError("give --session <dir>, --colmap <model-dir> or --nerfstudio <transforms.json>")
        default: throw UsageError("give one of --session, --colmap, --nerfstudio")
        }

        var scene: SceneContent?
        if let sceneURL {
            let bytes: Data
            do { bytes = try RegularFile.read(sceneURL) } catch { throw CommandFailure("\(error)") }
            do {
                scene = try JSONDecoder().decode(SceneContent.self, from: bytes)
                if let name = try? JSONDecoder().decode(SceneDescription.self, from: bytes).name {
                    defaultName = name
                }
            } catch let e as DecodingError {
                throw CommandFailure("not scene JSON: \(DatasetProblem(e, fileName: sceneURL.path))")
            }
        }

        let quiet = args.has("quiet")
        let metadata = MapMetadata(name: args.value("name") ?? defaultName, source: source,
                                   units: units ?? defaultUnits, up: up ?? defaultUp)
        let clock = ContinuousClock()
        let start = clock.now
        let built: (map: VPSMap, report: MapBuildReport)
        do {
            built = try MapBuilder(options: options).build(frames: frames, metadata: metadata, scene: scene) { line in
                if !quiet { FileHandle.standardError.write(Data("  \(line)\n".utf8)) }
            }
        } catch let e as MapBuildError {
            throw CommandFailure(e.description)
        }
        let writeStart = clock.now
        do { try built.map.write(to: out) } catch let e as MapFileError { throw CommandFailure(e.description) }
        let writeTime = clock.now - writeStart
        if !quiet { FileHandle.standardError.write(Data("  write: \(out) in \(String(format: "%.2f s", secs(writeTime)))\n".utf8)) }

        let r = built.report
        let size = (try? FileManager.default.attributesOfItem(atPath: out)[.size] as? Int) ?? 0
        let meanTrack = r.points == 0 ? 0 : Double(r.observations) / Double(r.points)
        print("built \(out): '\(built.map.metadata.name)', \(r.keyframes) keyframes, \(r.points) points "
              + "(\(r.viewDescriptors) view descriptors), "
              + "\(r.observations) observations (mean track \(String(format: "%.2f", meanTrack))), "
              + "\(built.map.scene.sections.count) sections, \(built.map.scene.objects.count) objects, "
              + "units \(built.map.metadata.units), up \(built.map.metadata.up), "
              + String(format: "%.1f MB, %.1f s", Double(size) / 1e6, secs(clock.now - start)))
        return 0
    }

    private static func secs(_ d: Duration) -> Double {
        d.seconds
    }
}
