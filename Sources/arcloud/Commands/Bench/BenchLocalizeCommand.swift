import Localization
import Foundation
import Geometry
import Vision
import Baselines
import MapModel
import Support
import VPSModel
import Storage

struct BenchLocalizeCommand: Command {
    static let name = "bench localize"
    static let summary = "Benchmark the localizer against an OpenCV-only peer pipeline on the same frames"
    static let overview = """
        USAGE: arcloud bench localize --map <file.vpsmap> <session dir> [--frames N] [--features N]

        Runs, in one process on the same decoded frames and map, one thread each (OpenCV's own
        thread pool is set to one thread too); per frame the peer runs first and the others
        follow in an order that rotates from frame to frame (whatever runs right after the
        peer finds the caches cold):
          orb only        this project's ORB extraction alone (the floor of any localizer)
          arcloud         this project's localizer, single-shot (vocabulary matching, then
                          multi-probe matching for frames it cannot place, upright P2P
                          LO-RANSAC with the frame's gravity from its odometry, as a phone
                          SDK sends it, up to two guided passes over the local map, LM)
          arcloud+decode  the same, timed from the encoded image
          image only      the same localizer without gravity (P3P LO-RANSAC)
          opencv          the same ORB extraction, then cv::BFMatcher k-NN against every map
                          descriptor + ratio test + cv::solvePnPRansac (AP3P) +
                          cv::solvePnPRefineLM (the map's descriptors come from this
                          project's ORB, whose sampling pattern differs from cv::ORB's, so
                          the peer extracts with it too)
        and prints success rates, recall at (5 cm, 2°), median errors, frames per second,
        median time per frame, and the ratios. Build in release for meaningful figures:
          swift build -c release && .build/release/arcloud bench localize ...
        """

    struct Options: CommandArguments {
        let map = Option.required("map", .text.placeholder("<file>"), help: "The map to localize against")
        let session = Positional("session dir")
        let frames = Option("frames", .integer(in: 1...1_000_000).placeholder("<N>"),
                            help: "Use at most N frames of the session", defaultText: "all")
        let features = Option("features", .integer(in: 100...20000).placeholder("<N>"),
                              help: "ORB features per frame for both pipelines",
                              defaultText: "the localizer's, 1000; 3000 on a map of at most 5,000 points")
    }

    struct Row {
        var name: String
        var milliseconds: [Double] = []
        var poses: [Pose?] = []
    }

    static func run(_ args: ParsedArguments<Options>) async throws -> Int32 {
        let mapPath = args.map
        let sessionURL = URL(fileURLWithPath: args.session)
        let asked = args.features
        let session = try RecordedSession.load(from: sessionURL)
        let limit = args.frames ?? session.frames.count
        let frames = Array(session.frames.prefix(limit))
        let map = try VPSMap.load(from: mapPath)
        var options = LocalizerOptions()
        if let asked {
            options.orb.featureCount = asked
            options.smallMapFeatureCount = nil
        }
        // Both pipelines extract what the localizer extracts on this map.
        let features = options.queryORB(mapPoints: map.points.count).featureCount
        let localizer = try Localizer(map: map, options: options)
        let peer = try OpenCVPeerLocalizer(descriptors: map.points.descriptors, positions: map.points.positions,
                                           ratio: Double(options.globalRatio),
                                           threshold: options.ransac.threshold, confidence: options.ransac.confidence,
                                           maxIterations: options.ransac.maxIterations, minInliers: options.minInliers)
        let extractor = try ORBExtractor(options: options.queryORB(mapPoints: map.points.count))
        let encoded = try frames.map { try [UInt8](Data(contentsOf: RecordedSession.imageURL(of: $0, in: sessionURL))) }
        let images = try encoded.map { try GrayImage(decoding: $0) }
        print("bench localize: \(frames.count) frames of \(session.name), map \(map.metadata.name) "
              + "(\(map.points.count) points), \(features) features, 1 thread, OpenCV \(openCVVersion)")

        func time(_ body: () throws -> Pose?) rethrows -> (Double, Pose?) {
            let t0 = DispatchTime.now().uptimeNanoseconds
            let pose = try body()
            return (Double(DispatchTime.now().uptimeNanoseconds - t0) / 1e6, pose)
        }
        var orb = Row(name: "orb only"), ours = Row(name: "arcloud"), oursEncoded = Row(name: "arcloud+decode"),
            imageOnly = Row(name: "image only"), opencv = Row(name: "opencv")
        // Warm up caches and lazy allocations once, outside the measurement.
        _ = try extractor.extract(images[0]); _ = try localizer.localize(image: images[0], intrinsics: session.camera)
        _ = try peer.localize(try extractor.extract(images[0]), camera: session.camera)
        for (i, image) in images.enumerated() {
            let gravity = frames[i].gravity
            // The OpenCV peer runs first; its brute-force pass leaves the caches cold for
            // whatever follows, so the others take turns at that place (a plain rotation of
            // all five would keep the same pipeline after the peer).
            let peerRun = {
                let (d, r) = try time {
                    var f = try extractor.extract(image)
                    if !session.camera.distortion.isEmpty {
                        f = try FeatureSet(keypoints: session.camera.undistort(f.keypoints), descriptors: f.descriptors)
                    }
                    return try peer.localize(f, camera: session.camera).pose
                }
                opencv.milliseconds.append(d); opencv.poses.append(r)
            }
            let runs: [() throws -> Void] = [
                { let (a, _) = try time { _ = try extractor.extract(image); return nil }
                  orb.milliseconds.append(a) },
                { let (b, p) = try time { try localizer.localize(image: image, intrinsics: session.camera, gravity: gravity).pose }
                  ours.milliseconds.append(b); ours.poses.append(p) },
                { let (c, q) = try time {
                      try localizer.localize(encoded: encoded[i], intrinsics: session.camera, gravity: gravity).pose
                  }
                  oursEncoded.milliseconds.append(c); oursEncoded.poses.append(q) },
                { let (e, u) = try time { try localizer.localize(image: image, intrinsics: session.camera).pose }
                  imageOnly.milliseconds.append(e); imageOnly.poses.append(u) },
            ]
            try peerRun()
            for k in runs.indices { try runs[(k + i) % runs.count]() }
        }

        print("pipeline         success  within(5cm,2°)  median err (cm / deg)   median ms/frame   frames/s")
        for row in [orb, ours, oursEncoded, imageOnly, opencv] {
            let total = row.milliseconds.reduce(0, +)
            let fps = total > 0 ? Double(row.milliseconds.count) / (total / 1000) : 0
            let med = Statistics.median(row.milliseconds) ?? 0
            var cols = row.name.padding(toLength: 16, withPad: " ", startingAt: 0)
            if row.poses.isEmpty {
                cols += "   -          -               -                 "
            } else {
                let errs = zip(row.poses, frames).compactMap { p, f -> (translation: Double, rotationDegrees: Double)? in
                    guard let p, let g = f.pose else { return nil }
                    return p.error(to: g)
                }
                let ok = row.poses.filter { $0 != nil }.count
                let within = errs.filter { $0.translation <= 0.05 && $0.rotationDegrees <= 2 }.count
                let mt = Statistics.median(errs.map(\.translation)).map { String(format: "%.2f", $0 * 100) } ?? "n/a"
                let mr = Statistics.median(errs.map(\.rotationDegrees)).map { String(format: "%.3f", $0) } ?? "n/a"
                cols += String(format: " %5.1f %%   %5.1f %%         ", 100 * Double(ok) / Double(frames.count),
                               100 * Double(within) / Double(frames.count))
                cols += "\(mt) / \(mr)".padding(toLength: 24, withPad: " ", startingAt: 0)
            }
            cols += String(format: "%8.2f        %8.1f", med, fps)
            print(cols)
        }
        let mean = { (r: Row) in r.milliseconds.reduce(0, +) / Double(max(r.milliseconds.count, 1)) }
        print(String(format: "speed-up arcloud / opencv:            %.1fx frames/s (target >= 20x)", mean(opencv) / mean(ours)))
        print(String(format: "arcloud end-to-end / ORB alone:       %.2fx time per frame (target <= 1.3x)", mean(ours) / mean(orb)))
        print(String(format: "arcloud+decode end-to-end / ORB alone: %.2fx time per frame", mean(oursEncoded) / mean(orb)))
        print(String(format: "image only / opencv:                  %.1fx frames/s; end to end %.2fx ORB alone",
                     mean(opencv) / mean(imageOnly), mean(imageOnly) / mean(orb)))
        return 0
    }
}
