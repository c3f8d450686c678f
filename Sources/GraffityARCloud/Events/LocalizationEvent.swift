import Geometry

/// The outcome of one VPS request, or a reset of localization.
public enum LocalizationEvent: Sendable, Hashable {
    /// The frame `frameId` was localized; `pose` is its `T_map_camera`.
    case localized(frameId: String, sectionId: String, pose: Pose, inliers: Int)
    /// The service found no acceptable pose for frame `frameId`.
    case notLocalized(frameId: String, reason: String)
    /// The request failed; `error` is also in `State.lastError`.
    case failed(ARCloudError)
    /// `reset()` dropped the fix; localization starts over.
    case reset
}
