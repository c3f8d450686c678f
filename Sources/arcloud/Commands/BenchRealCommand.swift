import Foundation
import Vision
import VPS

struct BenchRealCommand: Command {
    static let name = "bench real"
    static let summary = "Benchmark map building and localization on real photos (COLMAP splits) against OpenCV peers"
    static let help = """
        USAGE: arcloud bench real [<split dir>...] [--features N] [--map-features N] [--peers all|none|opencv|sift|orb] [--frames]

        For each split (default: ../shared/real/monstree/split-s3 and split-s6; layout in
        ../shared/real/README.md: map/ and query/ COLMAP text models, query_gt.tum), builds
        arcloud's map from the map photos (as `map build --colmap` does), localizes every
        query from the image alone (one thread) and scores it: success within 2° and 2 % of
        the scene scale (median distance of the query cameras from the point nearest to
        their optical axes), wrong = accepted and off by more than 10° or 10 %. In the same
        run, as yardsticks:
          opencv peer (our map)   `bench localize`'s peer: the same ORB features, BFMatcher
                                  k-NN against every point of arcloud's map, ratio test,
                                  cv::solvePnPRansac + cv::solvePnPRefineLM
          opencv sift/orb 4000    the straightforward script of ../shared/real/README.md:
                                  its own map (cv::SIFT or cv::ORB, 4,000 features, each map
                                  photo paired with its 3 nearest, every observation's
                                  descriptor kept), queries against every map descriptor,
                                  cv::solvePnPRansac + refinement
        Prints per split and method: success/queries, wrong, inaccurate (accepted, off by
        2–10° or 2–10 %), mean ms per query (extraction to pose; arcloud from the encoded
        image) and map points; with --frames, every query's verdict, errors and, for
        arcloud's rejections, the reason. Exits 1 when arcloud places any frame wrongly.

        OPTIONS:
          --features <N>   ORB features per query for arcloud and its peer (default: the localizer's,
                           3000 on these small maps)
          --map-features <N>
                           ORB features per map photo for arcloud's map (default: the map
                           builder's, 6000 for a map of up to 8 photos)
          --peers <which>  Yardsticks to run: all (default), none, opencv, sift or orb
          --frames         Print every query's outcome
        """
    static let options: Set<String> = ["features", "map-features", "peers"]
    static let switches: Set<String> = ["frames"]

    static func run(_ args: Arguments) async throws -> Int32 {
        var dirs: [String] = []
        var k = 0
        while let d = try? args.positional(k, "split dir") { dirs.append(d); k += 1 }
        if dirs.isEmpty { dirs = ["../shared/real/monstree/split-s3", "../shared/real/monstree/split-s6"] }
        let peers = try args.choice("peers", ["all", "none", "opencv", "sift", "orb"], default: "all")
        var localizerOptions = LocalizerOptions()
        if args.value("features") != nil {
            localizerOptions.orb.featureCount = try args.int("features", default: 1000, range: 100...20000)
            localizerOptions.smallMapFeatureCount = nil
        }
        var buildOptions = MapBuildOptions()
        if args.value("map-features") != nil {
            buildOptions.orb.featureCount = try args.int("map-features", default: 2500, range: 100...20000)
            buildOptions.minFeaturesPerMap = 0
        }
        var anyWrong = false
        print("bench real: OpenCV \(openCVVersion), one thread per method; success within (2°, 2 % of scene scale)")
        for dir in dirs {
            let split: RealPhotoSplit
            do { split = try RealPhotoSplit.load(from: URL(fileURLWithPath: dir, isDirectory: true)) } catch {
                throw CommandFailure("\(dir): \(error)")
            }
            var bench = RealPhotoBenchmark(split: split)
            bench.localizerOptions = localizerOptions
            bench.buildOptions = buildOptions
            let scale = try bench.sceneScale()
            let t0 = DispatchTime.now().uptimeNanoseconds
            let map = try bench.buildMap()
            let buildSeconds = Double(DispatchTime.now().uptimeNanoseconds - t0) / 1e9
            print(String(format: "%@: %d map photos, %d queries, scene scale %.3f units; map %d points in %.1f s",
                         split.name, split.map.images.count, split.queries.count, scale, map.points.count, buildSeconds))
            var results = [try bench.runLocalizer(on: map)]
            if peers == "all" || peers == "opencv" { results.append(try bench.runOpenCVPeer(on: map)) }
            if peers == "all" || peers == "sift" { results.append(try bench.runReferencePeer(.sift)) }
            if peers == "all" || peers == "orb" { results.append(try bench.runReferencePeer(.orb)) }
            for r in results { print("  " + r.line) }
            if args.has("frames") {
                for r in results {
                    print("  \(r.method):")
                    for f in r.frames {
                        var line = "    \(f.name) \(f.verdict.rawValue)"
                        if let d = f.rotationDegrees, let t = f.translationFraction {
                            line += String(format: " %.2f° %.2f %%", d, 100 * t)
                        }
                        if let why = f.reason { line += " (\(why))" }
                        if let ev = f.evidence {
                            line += String(format: " [nfa %.1f (%d/%d at %.0f, bg %.4f), rival %.1f (%d), σ %.2f° %.2f %%", ev.log10NFA,
                                           ev.globalInliers, ev.globalMatches, ev.radius, ev.background, ev.rivalNFA, ev.rivalInliers,
                                           ev.rotationSigmaDegrees, 100 * ev.positionSigma)
                            if let c = f.candidateError { line += String(format: "; candidate %.2f° %.2f %%", c.degrees, 100 * c.fraction) }
                            line += "]"
                        }
                        print(line)
                    }
                }
            }
            if let csv = ProcessInfo.processInfo.environment["ARCLOUD_DEBUG_CSV"] {
                var text = ""
                for f in results[0].frames {
                    let ev = f.evidence
                    let err = f.rotationDegrees.map { ($0, f.translationFraction!) } ?? f.candidateError.map { ($0.degrees, $0.fraction) }
                    var cols: [String] = [dir, f.name, f.verdict.rawValue, f.pose == nil ? "0" : "1"]
                    cols.append(err.map { String($0.0) } ?? "")
                    cols.append(err.map { String($0.1) } ?? "")
                    if let ev {
                        cols.append(String(ev.log10NFA)); cols.append(String(ev.globalInliers))
                        cols.append(String(ev.globalMatches)); cols.append(String(ev.rivalNFA))
                        cols.append(String(ev.rivalInliers)); cols.append(String(ev.rotationSigmaDegrees))
                        cols.append(String(ev.positionSigma)); cols.append(ev.coverage.map { "\($0.explained)/\($0.expected)/\($0.distinctiveInliers)" } ?? "")
                    } else { cols += Array(repeating: "", count: 8) }
                    cols.append(f.reason ?? "")
                    text += cols.joined(separator: "\t") + "\n"
                }
                if let h = FileHandle(forWritingAtPath: csv) { h.seekToEndOfFile(); h.write(text.data(using: .utf8)!); h.closeFile() }
                else { FileManager.default.createFile(atPath: csv, contents: text.data(using: .utf8)) }
            }
            anyWrong = anyWrong || results[0].count(.wrong) > 0
        }
        return anyWrong ? 1 : 0
    }
}
