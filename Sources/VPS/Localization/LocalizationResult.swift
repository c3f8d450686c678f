import Geometry

/// Wall-clock time spent in each stage of one localization, in milliseconds.
public struct StageTimings: Sendable, Hashable, Codable {
    public var decode: Double = 0
    public var extract: Double = 0
    public var retrieve: Double = 0
    public var match: Double = 0
    public var solve: Double = 0
    public var refine: Double = 0
    public var total: Double = 0

    public init() {}

    /// Stage names and values in pipeline order (the order reports print them).
    public var stages: [(name: String, milliseconds: Double)] {
        [("decode", decode), ("extract", extract), ("retrieve", retrieve), ("match", match),
         ("solve", solve), ("refine", refine)]
    }
}

/// The outcome of localizing one image against a map.
public struct LocalizationResult: Sendable, Hashable, Codable {
    public enum Status: String, Sendable, Hashable, Codable {
        /// A pose was found and passed every acceptance check.
        case localized
        /// No pose passed the acceptance checks; `reason` says which failed.
        case rejected
    }

    public var status: Status
    /// `T_map_camera`, present when localized.
    public var pose: Pose?
    /// The map section the camera is in, present when localized.
    public var sectionId: String?
    /// 2D–3D correspondences that agree with the pose.
    public var inliers: Int
    /// Tentative 2D–3D correspondences fed to the robust solver.
    public var matches: Int
    /// RMS reprojection error of the inliers, in pixels.
    public var reprojectionError: Double
    /// Why the frame was rejected, when it was.
    public var reason: String?
    /// Whether the tracking prior was used (guided matching) or global retrieval.
    public var usedPrior: Bool
    public var timings: StageTimings
    /// The inlier 2D–3D matches of the pose found (of the strongest attempt, when
    /// rejected): for drawing them over the image (the batch report does, for its worst
    /// frames). Not written to JSON: a results file stays one short line per frame.
    public var inlierMatches: [InlierMatch] = []

    /// One inlier: a keypoint of the image and the map point it matched.
    public struct InlierMatch: Sendable, Hashable {
        /// Keypoint position in the image as stored (pixels, distortion not removed).
        public var pixel: SIMD2<Float>
        /// Index of the map point (`VPSMap.points`).
        public var point: Int32

        public init(pixel: SIMD2<Float>, point: Int32) { self.pixel = pixel; self.point = point }
    }

    private enum CodingKeys: String, CodingKey {
        case status, pose, sectionId, inliers, matches, reprojectionError, reason, usedPrior, timings
    }

    public init(status: Status, pose: Pose? = nil, sectionId: String? = nil, inliers: Int = 0, matches: Int = 0,
                reprojectionError: Double = 0, reason: String? = nil, usedPrior: Bool = false,
                timings: StageTimings = StageTimings()) {
        self.status = status; self.pose = pose; self.sectionId = sectionId; self.inliers = inliers
        self.matches = matches; self.reprojectionError = reprojectionError; self.reason = reason
        self.usedPrior = usedPrior; self.timings = timings
    }

    public var isLocalized: Bool { status == .localized }
}
