import Geometry
import VPSModel

/// Predicts the camera pose in the map between VPS fixes from device odometry.
///
/// Odometry poses are `T_local_camera` in the device's own drifting frame. The last fix
/// gives `T_map_camera` at one instant; composing it with the odometry motion since then,
/// `T_map_now = T_map_fix · (T_local_fix)⁻¹ · T_local_now`, predicts the pose now. Drift
/// only accumulates since the last fix.
public struct OdometryTracker: Sendable, Hashable {
    /// `T_map_local`: where the device's local frame sits in the map, from the last fix.
    public private(set) var mapFromLocal: Pose?
    /// The last fix's 95 % accuracy, when it claimed one.
    public private(set) var fixAccuracy: PoseAccuracy?
    /// The odometry of the last fix's frame.
    private var fixOdometry: Pose?
    /// Odometry drift allowed per unit of distance travelled since the last fix, as a
    /// fraction of that distance: phone visual-inertial odometry drifts about 1 % of the
    /// distance walked; the default allows five times that.
    public var driftFraction = 0.05
    /// Heading drift allowed, degrees per unit of distance travelled since the last fix.
    public var driftDegreesPerUnit = 0.5

    public init() {}

    /// The predicted `T_map_camera` for a frame with this odometry, or nil without a fix
    /// (or without odometry).
    public func predict(odometry: Pose?) -> Pose? {
        guard let m = mapFromLocal, let o = odometry else { return nil }
        return m * o
    }

    /// The 95 % accuracy of `predict(odometry:)`: the last fix's, widened by the drift
    /// allowed over the distance the odometry has travelled since; nil when there is no
    /// prediction or the fix claimed no accuracy.
    public func predictAccuracy(odometry: Pose?) -> PoseAccuracy? {
        guard mapFromLocal != nil, let a = fixAccuracy, let from = fixOdometry, let o = odometry else { return nil }
        let travelled = length(o.translation - from.translation)
        return PoseAccuracy(position: a.position + driftFraction * travelled,
                            rotationDegrees: a.rotationDegrees + driftDegreesPerUnit * travelled)
    }

    /// Records a VPS result: a fix re-anchors the local frame; no fix keeps the old anchor.
    public mutating func update(fix: Pose?, odometry: Pose?) {
        update(fix: fix, accuracy: nil, odometry: odometry)
    }

    /// Records a VPS result with the fix's 95 % accuracy (`LocalizationResult.accuracy`).
    public mutating func update(fix: Pose?, accuracy: PoseAccuracy?, odometry: Pose?) {
        guard let fix, let o = odometry else { return }
        mapFromLocal = fix * o.inverse
        fixAccuracy = accuracy
        fixOdometry = o
    }

    /// Forgets the anchor (after a VPS reset).
    public mutating func reset() { mapFromLocal = nil; fixAccuracy = nil; fixOdometry = nil }
}
