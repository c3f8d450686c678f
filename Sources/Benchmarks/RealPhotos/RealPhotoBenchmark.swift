import Localization
import Formats
import Foundation
import Geodesy
import Geometry
import Support
import Vision
import Baselines
import MapModel
import MapBuilding
import VPSModel

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
    public struct Frame: Sendable, Hashable, Codable {
        public var name: String
        public var pose: Pose?
        public var verdict: RegistrationVerdict
        public var rotationDegrees: Double?
        /// Camera-centre error as a fraction of the scene scale.
        public var translationFraction: Double?
        /// Why the frame was rejected, when the method says.
        public var reason: String?
        public var milliseconds: Double
        /// The localizer's evidence for its pose or its rejected candidate (arcloud only).
        public var evidence: PoseEvidence?
        /// The pose's claimed accuracy (`PoseAccuracy`), in map units and degrees (arcloud only).
        public var accuracy: PoseAccuracy?
        /// `accuracy.position` as a fraction of the scene scale.
        public var claimedTranslationFraction: Double?
        /// Whether the pose's errors lie within `accuracy` (nil: no pose or no claim).
        public var withinClaim: Bool?
        /// The rejected candidate's errors against the truth: degrees and a fraction of the scene scale.
        public var candidateRotationDegrees: Double?, candidateTranslationFraction: Double?
        /// Inliers of the pose (or candidate) whose map point projects within 8 px of its
        /// keypoint under the ground-truth pose: the true matches the method found (arcloud only).
        public var trueInliers: Int?
        /// Metres, horizontally, from the GeoPose to the photo's own EXIF GPS reading, when
        /// the map is georeferenced (its photos carry GPS) and this one carries GPS too
        /// (arcloud only): the figure a real capture gives without surveyed truth.
        public var gpsDistance: Double?
    }

    /// One method's outcome on the split.
    public struct MethodResult: Sendable, Hashable, Codable {
        public var method: String
        public var mapPoints: Int
        public var frames: [Frame]
        public func count(_ v: RegistrationVerdict) -> Int { frames.filter { $0.verdict == v }.count }
        /// Frames the method accepted (placed or not).
        public var accepted: Int { frames.filter { $0.verdict != .rejected }.count }
        /// Accepted frames within their own claimed accuracy; nil when the method claims none.
        public var withinClaim: Int? {
            frames.contains { $0.accuracy != nil } ? frames.filter { $0.withinClaim == true }.count : nil
        }
        public var meanMilliseconds: Double {
            frames.map(\.milliseconds).reduce(0, +) / Double(max(frames.count, 1))
        }
        /// The frames' `gpsDistance`s, for the GeoPose line.
        public var gpsDistances: [Double] { frames.compactMap(\.gpsDistance) }
    }

    /// The scene scale the split is scored against.
    public func sceneScale() throws -> Double {
        guard let s = split.sceneScale else { throw MapBuildError("\(split.name): the query cameras' axes are parallel; no scene scale") }
        return s
    }

    /// Builds arcloud's map from the split's map photos.
    public func buildMap(progress: (String) -> Void = { _ in }) throws -> VPSMap {
        let frames = try split.mapFrames()
        // A COLMAP model's units and up are its own, as `map build --colmap` takes them.
        let metadata = MapMetadata(name: split.name, source: "colmap \(split.name)/map", units: .unknown, up: .unknown)
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
            var watch = Stopwatch()
            let r = try localizer.localize(encoded: bytes, intrinsics: q.intrinsics)
            let ms = watch.lap()
            var f = frame(q.name, r.status == .localized ? r.pose : nil, truth: split.truth[i], scale: scale,
                          reason: r.reason, ms: ms)
            f.evidence = r.evidence
            if let a = r.accuracy, let p = f.pose {
                let e = p.error(to: split.truth[i])
                f.accuracy = a
                f.claimedTranslationFraction = a.position / scale
                f.withinClaim = a.contains(translation: e.translation, rotationDegrees: e.rotationDegrees)
            }
            if let c = r.evidence?.candidate {
                let e = c.error(to: split.truth[i])
                f.candidateRotationDegrees = e.rotationDegrees
                f.candidateTranslationFraction = e.translation / scale
            }
            f.trueInliers = try trueInliers(r.inlierMatches, map: map, camera: q.intrinsics, truth: split.truth[i])
            if r.isLocalized, let geo = r.geoPose, let gps = EXIFGPS.photoReading(at: split.url(of: q)) {
                f.gpsDistance = gps.position.horizontalDistance(to: geo.position)
            }
            frames.append(f)
        }
        return MethodResult(method: "arcloud", mapPoints: map.points.count, frames: frames)
    }

    /// The `bench localize` OpenCV peer on arcloud's map, with the localizer's features.
    public func runOpenCVPeer(on map: VPSMap) throws -> MethodResult {
        let o = localizerOptions
        let peer = try OpenCVPeerLocalizer(descriptors: map.points.descriptors, positions: map.points.positions,
                                           ratio: Double(o.globalRatio), threshold: o.ransac.threshold,
                                           confidence: o.ransac.confidence, maxIterations: o.ransac.maxIterations,
                                           minInliers: o.minInliers)
        let extractor = try o.queryExtractor(for: map)
        let scale = try sceneScale()
        var frames: [Frame] = []
        for (i, q) in split.queries.enumerated() {
            let bytes = try [UInt8](Data(contentsOf: split.url(of: q)))
            var watch = Stopwatch()
            let image = try GrayImage(decoding: bytes)
            var f = try extractor.extract(image)
            if !q.intrinsics.distortion.isEmpty {
                f = try FeatureSet(keypoints: q.intrinsics.undistort(f.keypoints), descriptors: f.descriptors)
            }
            let r = try peer.localize(f, camera: q.intrinsics)
            let ms = watch.lap()
            frames.append(frame(q.name, r.pose, truth: split.truth[i], scale: scale, reason: nil, ms: ms))
        }
        return MethodResult(method: "opencv peer (arcloud's map)", mapPoints: map.points.count, frames: frames)
    }

    /// The reference OpenCV pipeline with its own map. Its time per query starts, as
    /// arcloud's does, from the encoded image: decoding, then extraction to pose.
    public func runReferencePeer(_ feature: ReferencePeerLocalizer.Feature, features: Int = 4000) throws -> MethodResult {
        func posed(_ im: RealPhotoSplit.Image, bytes: [UInt8]? = nil) throws -> ReferencePeerLocalizer.PosedImage {
            let image = try GrayImage(decoding: try bytes ?? [UInt8](Data(contentsOf: split.url(of: im))))
            return .init(image: image, intrinsics: im.intrinsics, pose: im.pose)
        }
        let peer = try ReferencePeerLocalizer(mapImages: try split.map.images.map { try posed($0) }, feature: feature,
                                              features: features)
        let scale = try sceneScale()
        var frames: [Frame] = []
        for (i, q) in split.queries.enumerated() {
            let bytes = try [UInt8](Data(contentsOf: split.url(of: q)))
            var watch = Stopwatch()
            var query = try posed(q, bytes: bytes)
            let decode = watch.lap()
            query.pose = .identity  // the peer must not see the ground truth
            let r = try peer.localize(query)
            frames.append(frame(q.name, r.pose, truth: split.truth[i], scale: scale, reason: nil,
                                ms: decode + r.matchMilliseconds + r.solveMilliseconds))
        }
        return MethodResult(method: "\(feature.rawValue) peer (cv::\(feature.rawValue.uppercased()) \(features), own map)", mapPoints: peer.pointCount,
                            frames: frames)
    }

    /// How many of `inliers` project within 8 px of their keypoint under `truth`.
    private func trueInliers(_ inliers: [LocalizationResult.InlierMatch], map: VPSMap, camera: CameraIntrinsics,
                             truth: Pose) throws -> Int {
        let keypoints = inliers.map { Keypoint(x: $0.pixel.x, y: $0.pixel.y) }
        let pixels = camera.distortion.isEmpty ? keypoints : try camera.undistort(keypoints)
        let pose = CameraFromWorld(truth)
        return zip(inliers, pixels).filter { m, k in
            guard let p = camera.project(pose.apply(map.points.position(Int(m.point)))) else { return false }
            let d = p - k.position
            return (d * d).sum() <= 64
        }.count
    }

    private func frame(_ name: String, _ pose: Pose?, truth: Pose, scale: Double, reason: String?, ms: Double) -> Frame {
        let e = pose.map { $0.error(to: truth) }
        return Frame(name: name, pose: pose,
                     verdict: RegistrationVerdict(estimate: pose, truth: truth, sceneScale: scale, tolerances: tolerances),
                     rotationDegrees: e?.rotationDegrees, translationFraction: e.map { $0.translation / scale },
                     reason: pose == nil ? reason : nil, milliseconds: ms)
    }
}
