import Geometry

/// Carries the last VPS fix forward with device odometry.
///
/// A fix is `T_map_camera` of the frame that was localized, remembered with that frame's
/// odometry `T_local_camera`. For a later frame with odometry `T_local_camera'`:
/// `T_map_camera' = T_map_camera · T_local_camera⁻¹ · T_local_camera'`, so drift in the
/// device's local frame cancels out between the two frames. Frames without odometry keep
/// the fix's pose (nothing better is known).
struct OdometryTracker: Sendable, Hashable {
    private var fixPose: Pose?
    private var fixOdometry: Pose?

    var hasFix: Bool { fixPose != nil }

    mutating func setFix(_ pose: Pose, odometry: Pose?) {
        fixPose = pose; fixOdometry = odometry
    }

    mutating func reset() { fixPose = nil; fixOdometry = nil }

    /// The camera pose of a frame with this odometry; nil before the first fix.
    func pose(odometry: Pose?) -> Pose? {
        guard let fixPose else { return nil }
        guard let fixOdometry, let odometry else { return fixPose }
        return fixPose * fixOdometry.inverse * odometry
    }
}
