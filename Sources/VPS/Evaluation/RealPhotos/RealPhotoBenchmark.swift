import Foundation
import Geometry
import Vision

/// Scores localizers on a real-photo split (`RealPhotoSplit`) as `../shared/real/README.md`
/// does: arcloud's map built from the split's posed map photos (as `arcloud map build
/// --colmap` builds it) and its localizer from the image alone; and, as yardsticks, the
/// OpenCV peer of `arcloud bench localize` on the same map and query features, and the
/// straightforward OpenCV pipeline with its own map (`ReferencePeerLocalizer`, SIFT or ORB).
public struct RealPhotoBenchmark: Sendable {
    public var split: RealPhotoSplit
    public var buildOptions = MapBuildOptions()
    public var localizerOptions = LocalizerOptions()
    public var tolerances = RegistrationVerdict.Tolerances()

    public init(split: RealPhotoSplit) { self.split = split }

    /// One query's outcome under one method.
    public struct Frame: Sendable, Hashable {
        public var name: String
        public var pose: Pose?
        public var verdict: RegistrationVerdict
        public var rotationDegrees: Double?
        /// Camera-centre error as a fraction of the scene scale.
        public var translationFraction: Double?
        /// Why the frame was rejected, when the method says.
        public var reason: String?
        /// The localizer's evidence for its pose (or its rejected candidate), when it says.
        public var evidence: PoseEvidence?
        /// The rejected candidate's errors against the truth (degrees, fraction of the scene scale).
        public var candidateError: (degrees: Double, fraction: Double)? {
            guard let c = evidence?.candidate, let t = truth else { return nil }
            let e = c.error(to: t)
            return (e.rotationDegrees, e.translation / sceneScale)
        }
        var truth: Pose?
        var sceneScale = 1.0
        public var milliseconds: Double
    }

    /// One method's outcome on the split.
    public struct MethodResult: Sendable, Hashable {
        public var method: String
        public var mapPoints: Int
        public var frames: [Frame]
        public func count(_ v: RegistrationVerdict) -> Int { frames.filter { $0.verdict == v }.count }
        public var meanMilliseconds: Double {
            frames.map(\.milliseconds).reduce(0, +) / Double(max(frames.count, 1))
        }
        /// `method  success/total  wrong  ms/frame  map points`.
        public var line: String {
            String(format: "%@ %2d/%-2d  %3d %%   %2d wrong  %2d inaccurate  %8.1f ms/frame  %6d map points",
                   method.padding(toLength: 22, withPad: " ", startingAt: 0), count(.success), frames.count,
                   Int((100 * Double(count(.success)) / Double(max(frames.count, 1))).rounded()),
                   count(.wrong), count(.inaccurate), meanMilliseconds, mapPoints)
        }
    }

    /// The scene scale the split is scored against.
    public func sceneScale() throws -> Double {
        guard let s = split.sceneScale else { throw MapBuildError("\(split.name): the query cameras' axes are parallel; no scene scale") }
        return s
    }

    /// Builds arcloud's map from the split's map photos.
    public func buildMap(progress: (String) -> Void = { _ in }) throws -> VPSMap {
        let frames = try split.mapFrames()
        let metadata = MapMetadata(name: split.name, source: "colmap \(split.name)/map")
        return try MapBuilder(options: buildOptions).build(frames: frames, metadata: metadata, log: progress).map
    }

    /// arcloud's localizer on every query, from the image alone (real photos come without
    /// gravity), one thread.
    public func runLocalizer(on map: VPSMap) throws -> MethodResult {
        let localizer = try Localizer(map: map, options: localizerOptions)
        let scale = try sceneScale()
        var frames: [Frame] = []
        for (i, q) in split.queries.enumerated() {
            let bytes = try [UInt8](Data(contentsOf: split.url(of: q)))
            let t0 = DispatchTime.now().uptimeNanoseconds
            let r = try localizer.localize(encoded: bytes, intrinsics: q.intrinsics)
            let ms = Double(DispatchTime.now().uptimeNanoseconds - t0) / 1e6
            var f = frame(q.name, r.status == .localized ? r.pose : nil, truth: split.truth[i], scale: scale,
                          reason: r.reason, ms: ms)
            f.evidence = r.evidence
            if ProcessInfo.processInfo.environment["ARCLOUD_DEBUG_TRUTH"] != nil {
                let truth = CameraFromWorld(split.truth[i])
                var fit = 0, behind = 0
                var errs: [Double] = []
                for m in r.inlierMatches {
                    let x = map.points.position(Int(m.point))
                    guard let p = q.intrinsics.project(truth.apply(x)) else { behind += 1; continue }
                    let d = p - SIMD2<Double>(Double(m.pixel.x), Double(m.pixel.y))
                    let e = (d * d).sum().squareRoot()
                    errs.append(e)
                    if e < 8 { fit += 1 }
                }
                let xs = r.inlierMatches.map { Double($0.pixel.x) }, ys = r.inlierMatches.map { Double($0.pixel.y) }
                print(String(format: "    debug %@: %d inliers, %d fit the truth within 8 px, %d behind; median err %.1f px; x %.0f–%.0f y %.0f–%.0f",
                             q.name, r.inlierMatches.count, fit, behind, errs.sorted().dropFirst(errs.count / 2).first ?? -1,
                             xs.min() ?? 0, xs.max() ?? 0, ys.min() ?? 0, ys.max() ?? 0))
            }
            f.truth = split.truth[i]
            f.sceneScale = scale
            frames.append(f)
        }
        return MethodResult(method: "arcloud", mapPoints: map.points.count, frames: frames)
    }

    /// The `bench localize` OpenCV peer on arcloud's map, with the localizer's ORB features.
    public func runOpenCVPeer(on map: VPSMap) throws -> MethodResult {
        let o = localizerOptions
        let peer = try OpenCVPeerLocalizer(descriptors: map.points.descriptors, positions: map.points.positions,
                                           ratio: Double(o.globalRatio), threshold: o.ransac.threshold,
                                           confidence: o.ransac.confidence, maxIterations: o.ransac.maxIterations,
                                           minInliers: o.minInliers)
        let extractor = try ORBExtractor(options: o.queryORB(mapPoints: map.points.count))
        let scale = try sceneScale()
        var frames: [Frame] = []
        for (i, q) in split.queries.enumerated() {
            let bytes = try [UInt8](Data(contentsOf: split.url(of: q)))
            let t0 = DispatchTime.now().uptimeNanoseconds
            let image = try GrayImage(decoding: bytes)
            var f = try extractor.extract(image)
            if !q.intrinsics.distortion.isEmpty {
                f = try FeatureSet(keypoints: q.intrinsics.undistort(f.keypoints), descriptors: f.descriptors)
            }
            let r = try peer.localize(f, camera: q.intrinsics)
            let ms = Double(DispatchTime.now().uptimeNanoseconds - t0) / 1e6
            frames.append(frame(q.name, r.pose, truth: split.truth[i], scale: scale, reason: nil, ms: ms))
        }
        return MethodResult(method: "opencv peer (our map)", mapPoints: map.points.count, frames: frames)
    }

    /// The reference OpenCV pipeline with its own map.
    public func runReferencePeer(_ feature: ReferencePeerLocalizer.Feature, features: Int = 4000) throws -> MethodResult {
        func posed(_ im: RealPhotoSplit.Image) throws -> ReferencePeerLocalizer.PosedImage {
            let image = try GrayImage(decoding: [UInt8](Data(contentsOf: split.url(of: im))))
            return .init(image: image, intrinsics: im.intrinsics, pose: im.pose)
        }
        let peer = try ReferencePeerLocalizer(mapImages: try split.map.images.map(posed), feature: feature,
                                              features: features)
        let scale = try sceneScale()
        var frames: [Frame] = []
        for (i, q) in split.queries.enumerated() {
            var query = try posed(q)
            query.pose = .identity  // the peer must not see the ground truth
            let r = try peer.localize(query)
            frames.append(frame(q.name, r.pose, truth: split.truth[i], scale: scale, reason: nil,
                                ms: r.matchMilliseconds + r.solveMilliseconds))
        }
        return MethodResult(method: "opencv \(feature.rawValue) \(features) (own map)", mapPoints: peer.pointCount,
                            frames: frames)
    }

    private func frame(_ name: String, _ pose: Pose?, truth: Pose, scale: Double, reason: String?, ms: Double) -> Frame {
        let e = pose.map { $0.error(to: truth) }
        return Frame(name: name, pose: pose,
                     verdict: RegistrationVerdict(estimate: pose, truth: truth, sceneScale: scale, tolerances: tolerances),
                     rotationDegrees: e?.rotationDegrees, translationFraction: e.map { $0.translation / scale },
                     reason: pose == nil ? reason : nil, milliseconds: ms)
    }
}
