import Baselines
import Foundation
import Geometry
import Localization
import MapModel
import Storage
import Vision
import VPSModel

/// `arcloud bench localize`: on the same decoded frames and map, one thread each, ORB
/// extraction alone, the localizer with the frames' gravity (from the encoded image too),
/// the localizer from the image alone, and the OpenCV-only peer (cv::BFMatcher k-NN over
/// every map descriptor, ratio test, cv::solvePnPRansac, cv::solvePnPRefineLM on this
/// project's ORB features). Per frame the peer runs first and the others follow in an
/// order that rotates from frame to frame (whatever runs right after the peer finds the
/// caches cold). With a venue map (`map merge` of the map's capture and others), the
/// localizer on the venue runs in the same rotation: the cost of the venue's other
/// captures, measured against the map alone in the same run.
public struct LocalizeBenchmark {
    public let session: RecordedSession
    /// The session's first frames, those benchmarked.
    public let frames: [RecordedSession.Frame]
    public let map: VPSMap
    /// Features per frame, both pipelines: what the localizer extracts on this map.
    public var features: Int { extractor.options.featureCount }
    private let localizer: Localizer
    /// The localizer on the venue map, when one is given.
    private let venue: Localizer?
    private let peer: OpenCVPeerLocalizer
    private let extractor: FeatureExtractor
    private let encoded: [[UInt8]]
    private let images: [GrayImage]

    /// Loads the session (its first `frameLimit` frames; all when nil) and the map, and
    /// reads and decodes the frames. `features` replaces the localizer's feature count
    /// (also on small maps).
    public init(map mapPath: String, session sessionURL: URL, frameLimit: Int?, features asked: Int?,
                venue venuePath: String? = nil) throws {
        session = try RecordedSession.load(from: sessionURL)
        frames = Array(session.frames.prefix(frameLimit ?? session.frames.count))
        map = try VPSMap.load(from: mapPath)
        var options = LocalizerOptions()
        if let asked {
            options.useFeatureCount(asked)
        }
        localizer = try Localizer(map: map, options: options)
        venue = try venuePath.map { try Localizer(map: try VPSMap.load(from: $0), options: options) }
        peer = try OpenCVPeerLocalizer(descriptors: map.points.descriptors, positions: map.points.positions,
                                       ratio: Double(options.globalRatio),
                                       threshold: options.ransac.threshold, confidence: options.ransac.confidence,
                                       maxIterations: options.ransac.maxIterations, minInliers: options.minInliers)
        extractor = try options.queryExtractor(for: map)
        encoded = try frames.map { try [UInt8](Data(contentsOf: RecordedSession.imageURL(of: $0, in: sessionURL))) }
        images = try encoded.map { try GrayImage(decoding: $0) }
    }

    /// What is measured: frames, session, map, features, threads, OpenCV's version.
    public var headline: String {
        "bench localize: \(frames.count) frames of \(session.name), map \(map.metadata.name) "
            + "(\(map.points.count) points)"
            + (venue.map { ", venue \($0.map.metadata.name) (\($0.map.points.count) points)" } ?? "")
            + ", \(features) features, 1 thread, OpenCV \(openCVVersion)"
            + (map.metadata.featureType == .orb ? "" : "; a \(map.metadata.featureType.name) map: 'orb only' and 'ORB alone' "
                + "below are its \(map.metadata.featureType.name) extraction alone")
    }

    /// Runs every pipeline on every frame (after one warm-up frame, not timed) and returns
    /// the runs in table order: orb only, arcloud, arcloud+decode, image only, opencv, and
    /// arcloud on the venue when there is one.
    public func run() throws -> [PipelineRun] {
        let camera = session.camera
        func time(_ body: () throws -> Pose?) rethrows -> (Double, Pose?) {
            let t0 = DispatchTime.now().uptimeNanoseconds
            let pose = try body()
            return (Double(DispatchTime.now().uptimeNanoseconds - t0) / 1e6, pose)
        }
        var orb = PipelineRun(name: "orb only"), ours = PipelineRun(name: "arcloud"),
            oursEncoded = PipelineRun(name: "arcloud+decode"), imageOnly = PipelineRun(name: "image only"),
            opencv = PipelineRun(name: "opencv"), onVenue = PipelineRun(name: "arcloud venue")
        // Warm up caches and lazy allocations once, outside the measurement.
        _ = try extractor.extract(images[0]); _ = try localizer.localize(image: images[0], intrinsics: camera)
        _ = try peer.localize(try extractor.extract(images[0]), camera: camera)
        _ = try venue?.localize(image: images[0], intrinsics: camera)
        // The motion-blur stage plans its Fourier transforms and first touches their buffers
        // on the first frame it deconvolves (about 10 ms, once per process and frame size):
        // a one-off as the lazy allocations above are, so it is made here too.
        _ = try images[0].removingMotionBlur(minAnisotropy: 1, minLength: 0,
                                             noiseToSignal: LocalizerOptions().motionDeblur.noiseToSignal)
        for (i, image) in images.enumerated() {
            let gravity = frames[i].gravity
            // The OpenCV peer runs first; its brute-force pass leaves the caches cold for
            // whatever follows, so the others take turns at that place (a plain rotation of
            // all five would keep the same pipeline after the peer).
            let peerRun = {
                let (d, r) = try time {
                    var f = try extractor.extract(image)
                    if !camera.distortion.isEmpty {
                        f = try FeatureSet(keypoints: camera.undistort(f.keypoints), descriptors: f.descriptors)
                    }
                    return try peer.localize(f, camera: camera).pose
                }
                opencv.milliseconds.append(d); opencv.poses.append(r)
            }
            var runs: [() throws -> Void] = [
                { let (a, _) = try time { _ = try extractor.extract(image); return nil }
                  orb.milliseconds.append(a) },
                { var stages = StageTimings()
                  let (b, p) = try time {
                      let r = try localizer.localize(image: image, intrinsics: camera, gravity: gravity)
                      stages = r.timings
                      return r.pose
                  }
                  ours.milliseconds.append(b); ours.poses.append(p); ours.stages.append(stages) },
                { let (c, q) = try time {
                      try localizer.localize(encoded: encoded[i], intrinsics: camera, gravity: gravity).pose
                  }
                  oursEncoded.milliseconds.append(c); oursEncoded.poses.append(q) },
                { let (e, u) = try time { try localizer.localize(image: image, intrinsics: camera).pose }
                  imageOnly.milliseconds.append(e); imageOnly.poses.append(u) },
            ]
            if let venue {
                runs.append { let (v, w) = try time { try venue.localize(image: image, intrinsics: camera, gravity: gravity).pose }
                              onVenue.milliseconds.append(v); onVenue.poses.append(w) }
            }
            try peerRun()
            for k in runs.indices { try runs[(k + i) % runs.count]() }
        }
        return [orb, ours, oursEncoded, imageOnly, opencv] + (venue == nil ? [] : [onVenue])
    }
}
