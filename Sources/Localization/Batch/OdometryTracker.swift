import Geometry

/// Predicts the camera pose in the map between VPS fixes from device odometry.
///
/// Odometry poses are `T_local_camera` in the device's own drifting frame. The last fix
/// gives `T_map_camera` at one instant; composing it with the odometry motion since then,
/// `T_map_now = T_map_fix · (T_local_fix)⁻¹ · T_local_now`, predicts the pose now. Drift
/// only accumulates since the last fix.
public struct OdometryTracker: Sendable, Hashable {
    /// `T_map_local`: where the device's local frame sits in the map, from the last fix.
    public private(set) var mapFromLocal: Pose?

    public init() {}

    /// The predicted `T_map_camera` for a frame with this odometry, or nil without a fix
    /// (or without odometry).
    public func predict(odometry: Pose?) -> Pose? {
        guard let m = mapFromLocal, let o = odometry else { return nil }
        return m * o
    }

    /// Records a VPS result: a fix re-anchors the local frame; no fix keeps the old anchor.
    public mutating func update(fix: Pose?, odometry: Pose?) {
        guard let fix, let o = odometry else { return }
        mapFromLocal = fix * o.inverse
    }

    /// Forgets the anchor (after a VPS reset).
    public mutating func reset() { mapFromLocal = nil }
}
