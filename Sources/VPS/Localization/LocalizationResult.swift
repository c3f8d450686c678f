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

    public init(status: Status, pose: Pose? = nil, sectionId: String? = nil, inliers: Int = 0, matches: Int = 0,
                reprojectionError: Double = 0, reason: String? = nil, usedPrior: Bool = false,
                timings: StageTimings = StageTimings()) {
        self.status = status; self.pose = pose; self.sectionId = sectionId; self.inliers = inliers
        self.matches = matches; self.reprojectionError = reprojectionError; self.reason = reason
        self.usedPrior = usedPrior; self.timings = timings
    }

    public var isLocalized: Bool { status == .localized }
}
