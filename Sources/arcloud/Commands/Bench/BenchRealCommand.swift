import Benchmarks
import Foundation
import Localization
import MapBuilding
import Vision

struct BenchRealCommand: Command {
    static let name = "bench real"
    static let summary = "Benchmark map building and localization on every real-photo split under a folder, against an ORB peer"
    static let overview = """
        USAGE: arcloud bench real [<folder>...] [--peers orb|sift|opencv|all|none] [--features N] [--map-features N]
                                  [--affine-views | --no-affine-views] [--feature-type orb|sift] [--frames] [--json]

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
        the peers claim none), map points and mean ms per query (every method from the
        encoded image: decoding, extraction, matching and pose), and the totals.
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
        let affineViews = Flag("affine-views", help: "Build every arcloud map with simulated-view descriptors "
                                   + "(as map build --affine-views; default: maps of few photos)")
        let noAffineViews = Flag("no-affine-views", help: "Build arcloud's maps without them (as map build --no-affine-views)")
        let featureType = Option("feature-type", .oneOf(["orb", "sift"]).placeholder("<type>"), default: "orb",
                                 help: "Features of arcloud's maps and queries (as map build --feature-type)")
        let frames = Flag("frames", help: "Also print every query's outcome: verdict, errors and, for arcloud, the "
                              + "evidence (NFA, pose σ, explained regions), the true inliers (within 8 px under the "
                              + "ground truth) and why a frame was rejected")
        let json = Flag("json", help: "Print the results as one JSON object instead")
    }

    static func run(_ args: ParsedArguments<Options>) async throws -> Int32 {
        var localizerOptions = LocalizerOptions()
        if let features = args.features {
            localizerOptions.useFeatureCount(features)
        }
        var buildOptions = MapBuildOptions()
        buildOptions.simulatedViews = try .from(affineViews: args.affineViews, noAffineViews: args.noAffineViews)
        buildOptions.featureType = FeatureType(rawValue: args.featureType)!  // the parser's words
        if let features = args.mapFeatures { buildOptions.useFeatureCount(features) }
        let splitFolders = try RealPhotoSplit.folders(under: args.folders.isEmpty ? [RealPhotoSplit.defaultRoot] : args.folders)
        if !args.json { print(RealPhotoTable.headline) }
        var results: [RealPhotoSplitResult] = []
        for dir in splitFolders {
            let split: RealPhotoSplit
            do { split = try RealPhotoSplit.load(from: dir) } catch { throw CommandFailure("\(dir.path): \(error)") }
            var bench = RealPhotoBenchmark(split: split)
            bench.localizerOptions = localizerOptions
            bench.buildOptions = buildOptions
            let result = try bench.run(peers: RealPhotoPeers(rawValue: args.peers)!)  // the parser's words
            results.append(result)
            guard !args.json else { continue }
            if results.count == 1 { print(RealPhotoTable.header(result.methods.map(\.method))) }
            print(RealPhotoTable.row(result))
            if args.frames { RealPhotoTable.frameLines(result.methods).forEach { print($0) } }
        }
        if args.json {
            try printJSON(RealPhotoReport(splits: results))
        } else {
            print(RealPhotoTable.total(results))
        }
        return results.contains { $0.methods[0].count(.wrong) > 0 } ? 1 : 0
    }
}
