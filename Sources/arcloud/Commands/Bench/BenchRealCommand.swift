import Localization
import Foundation
import Vision
import Benchmarks
import MapBuilding

struct BenchRealCommand: Command {
    static let name = "bench real"
    static let summary = "Benchmark map building and localization on every real-photo split under a folder, against an ORB peer"
    static let overview = """
        USAGE: arcloud bench real [<folder>...] [--peers orb|sift|opencv|all|none] [--features N] [--map-features N]
                                  [--affine-views] [--frames] [--json]

        Runs every split under each folder (a split holds map/ and query/ COLMAP text models
        with the photos' poses, and query_gt.tum; a scene holds split-*/ folders; a root such as
        ../shared/real holds scenes). Default: ../shared/real when it is there, else the
        photos shipped with the tests (Tests/Fixtures/real).

        Per split, arcloud builds its map from the map photos (as `map build --colmap` does)
        and localizes every query from the image alone, one thread; each is scored against
        the ground truth: placed = within 2° and 2 % of the scene scale (the median distance
        of the query cameras from the point nearest to their optical axes), wrong = accepted
        and off by more than 10° or 10 % (a VPS must reject such a frame, not place it). In
        the same run, the yardsticks:
          orb      the straightforward ORB script of ../shared/real/README.md: its own map
                   (cv::ORB 4,000 features, each map photo paired with its 3 nearest, every
                   observation's descriptor kept), queries against every map descriptor,
                   cv::solvePnPRansac + refinement; it rejects nothing it can solve
          sift     the same with cv::SIFT
          opencv   `bench localize`'s peer on arcloud's own map and query features
        Prints one table: per split and method, placed/queries, wrong, accepted (acc), how many
        accepted frames lie within their own claimed 95 % accuracy (in claim; arcloud only:
        the peers claim none), map points and mean ms per query (extraction to pose; arcloud
        from the encoded image), and the totals.
        Exits 1 when arcloud places any frame wrongly.
        """

    struct Options: CommandArguments {
        let folders = Positional(zeroOrMore: "folder")
        let peers = Option("peers", .oneOf(["orb", "sift", "opencv", "all", "none"]).placeholder("<which>"), default: "orb",
                           help: "Yardsticks: orb, sift, opencv, all or none")
        let features = Option("features", .integer(in: 100...20000).placeholder("<N>"),
                              help: "ORB features per query for arcloud and its opencv peer",
                              defaultText: "the localizer's, 3000 on maps of a few photos")
        let mapFeatures = Option("map-features", .integer(in: 100...20000).placeholder("<N>"),
                                 help: "ORB features per map photo for arcloud's map",
                                 defaultText: "the map builder's, 6000 for a map of up to 8 photos")
        let affineViews = Flag("affine-views", help: "Build arcloud's maps with simulated-view descriptors "
                                   + "(as map build --affine-views)")
        let frames = Flag("frames", help: "Also print every query's outcome: verdict, errors and, for arcloud, the "
                              + "evidence (NFA, pose σ, explained regions), the true inliers (within 8 px under the "
                              + "ground truth) and why a frame was rejected")
        let json = Flag("json", help: "Print the results as one JSON object instead")
    }

    /// One split's results, as `--json` prints them.
    struct SplitResult: Codable {
        var scene: String
        var split: String
        var mapPhotos: Int
        var queries: Int
        var sceneScale: Double
        var mapBuildSeconds: Double
        var methods: [RealPhotoBenchmark.MethodResult]
    }

    static func run(_ args: ParsedArguments<Options>) async throws -> Int32 {
        var folders = args.folders
        if folders.isEmpty {
            let shared = "../shared/real"
            folders = [FileManager.default.fileExists(atPath: shared) ? shared : "Tests/Fixtures/real"]
        }
        let peers = args.peers
        var localizerOptions = LocalizerOptions()
        if let features = args.features {
            localizerOptions.orb.featureCount = features
            localizerOptions.smallMapFeatureCount = nil
        }
        var buildOptions = MapBuildOptions()
        buildOptions.affineViews = args.affineViews
        if let features = args.mapFeatures {
            buildOptions.orb.featureCount = features
            buildOptions.minFeaturesPerMap = 0
        }
        let splitFolders = folders.flatMap { RealPhotoSplit.folders(under: URL(fileURLWithPath: $0, isDirectory: true)) }
        guard !splitFolders.isEmpty else {
            throw CommandFailure("no split (a folder with map/ and query/) under \(folders.joined(separator: ", "))")
        }
        let json = args.json
        if !json {
            print("bench real: OpenCV \(openCVVersion), one thread per method; placed = within (2°, 2 % of the scene scale), "
                  + "wrong = accepted and off by more than 10° or 10 %")
        }
        var results: [SplitResult] = []
        var printedHeader = false
        for dir in splitFolders {
            let split: RealPhotoSplit
            do { split = try RealPhotoSplit.load(from: dir) } catch { throw CommandFailure("\(dir.path): \(error)") }
            var bench = RealPhotoBenchmark(split: split)
            bench.localizerOptions = localizerOptions
            bench.buildOptions = buildOptions
            let scale = try bench.sceneScale()
            let t0 = DispatchTime.now().uptimeNanoseconds
            let map = try bench.buildMap()
            let buildSeconds = Double(DispatchTime.now().uptimeNanoseconds - t0) / 1e9
            var methods = [try bench.runLocalizer(on: map)]
            if peers == "all" || peers == "orb" { methods.append(try bench.runReferencePeer(.orb)) }
            if peers == "all" || peers == "sift" { methods.append(try bench.runReferencePeer(.sift)) }
            if peers == "all" || peers == "opencv" { methods.append(try bench.runOpenCVPeer(on: map)) }
            let result = SplitResult(scene: split.scene, split: split.name, mapPhotos: split.map.images.count,
                                     queries: split.queries.count, sceneScale: scale, mapBuildSeconds: buildSeconds,
                                     methods: methods)
            results.append(result)
            guard !json else { continue }
            if !printedHeader { print(headerLine(methods.map(\.method))); printedHeader = true }
            print(row("\(result.scene)/\(result.split)", mapPhotos: result.mapPhotos, methods: methods))
            if args.frames { printFrames(methods) }
        }
        let anyWrong = results.contains { $0.methods[0].count(.wrong) > 0 }
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            struct Report: Codable { var openCV: String; var splits: [SplitResult] }
            print(String(decoding: try encoder.encode(Report(openCV: openCVVersion, splits: results)), as: UTF8.self))
        } else {
            print(totalLine(results))
        }
        return anyWrong ? 1 : 0
    }

    /// Columns of one method: placed, wrong, accepted, within claim, map points, ms per query.
    private static let columnWidth = 47

    private static func pad(_ s: String, _ n: Int, left: Bool = true) -> String {
        s.count >= n ? s : (left ? String(repeating: " ", count: n - s.count) + s : s + String(repeating: " ", count: n - s.count))
    }

    private static func cell(_ m: RealPhotoBenchmark.MethodResult) -> String {
        pad("\(m.count(.success))/\(m.frames.count)", 7) + pad("\(m.count(.wrong))", 6) + pad("\(m.accepted)", 5)
            + pad(m.withinClaim.map { "\($0)/\(m.accepted)" } ?? "-", 9) + pad("\(m.mapPoints)", 8)
            + pad(String(format: "%.1f", m.meanMilliseconds), 10)
    }

    private static func headerLine(_ methods: [String]) -> String {
        pad("", 36) + methods.map { " | " + pad($0, columnWidth, left: false) }.joined() + "\n"
            + pad("split", 32, left: false) + pad("map", 4)
            + methods.map { _ in
                " | " + pad(pad("placed", 7) + pad("wrong", 6) + pad("acc", 5) + pad("in claim", 9) + pad("points", 8)
                            + pad("ms/frame", 10), columnWidth, left: false)
            }.joined()
    }

    private static func row(_ name: String, mapPhotos: Int, methods: [RealPhotoBenchmark.MethodResult]) -> String {
        pad(name, 32, left: false) + pad("\(mapPhotos)", 4) + methods.map { " | " + pad(cell($0), columnWidth, left: false) }.joined()
    }

    private static func totalLine(_ results: [SplitResult]) -> String {
        guard let first = results.first else { return "" }
        let totals = first.methods.indices.map { i -> String in
            let ms = results.map { $0.methods[i] }
            let placed = ms.map { $0.count(.success) }.reduce(0, +), queries = ms.map(\.frames.count).reduce(0, +)
            let wrong = ms.map { $0.count(.wrong) }.reduce(0, +), accepted = ms.map(\.accepted).reduce(0, +)
            let within = ms.compactMap(\.withinClaim)
            let claim = within.count == ms.count ? "\(within.reduce(0, +))/\(accepted)" : "-"
            let time = ms.map { $0.meanMilliseconds * Double($0.frames.count) }.reduce(0, +) / Double(max(queries, 1))
            return " | " + pad(pad("\(placed)/\(queries)", 7) + pad("\(wrong)", 6) + pad("\(accepted)", 5) + pad(claim, 9)
                               + pad("", 8) + pad(String(format: "%.1f", time), 10), columnWidth, left: false)
        }
        return pad("total (\(results.count) splits)", 36, left: false) + totals.joined()
    }

    private static func printFrames(_ methods: [RealPhotoBenchmark.MethodResult]) {
        for m in methods {
            print("  \(m.method):")
            for f in m.frames {
                var line = "    \(f.name) \(f.verdict.rawValue)"
                if let d = f.rotationDegrees, let t = f.translationFraction { line += String(format: " %.2f° %.2f %%", d, 100 * t) }
                if let why = f.reason { line += " (\(why))" }
                if let c = f.candidateRotationDegrees, let t = f.candidateTranslationFraction {
                    line += String(format: "; candidate %.2f° %.2f %% off", c, 100 * t)
                }
                if let e = f.evidence {
                    line += String(format: " [NFA 10^%.1f, %d of %d global matches", e.log10NFA, e.globalInliers, e.globalMatches)
                    if e.rotationSigmaDegrees.isFinite {
                        line += String(format: ", σ %.2f° %.2f %%, residual scale %.2f", e.rotationSigmaDegrees,
                                       100 * e.positionSigma, e.residualScale)
                    }
                    if let c = e.coverage { line += ", explains \(c.explained)/\(c.expected) regions" }
                    line += "]"
                }
                if let a = f.accuracy, let t = f.claimedTranslationFraction, let within = f.withinClaim {
                    line += " claim \(String(format: "%.2f° %.2f %%", a.rotationDegrees, 100 * t)) "
                        + (within ? "(within)" : "(OUTSIDE)")
                }
                if let t = f.trueInliers { line += " true inliers \(t)" }
                print(line)
            }
        }
    }
}
