import VPSModel

/// How navigation guides and when it gives up; part of `GraffityARCloud.Configuration`.
public struct NavigationOptions: Sendable, Hashable {
    /// Floor-plane metres from an intermediate waypoint at which it counts as passed.
    public var waypointRadius: Double
    /// Floor-plane metres from the destination at which the camera has arrived.
    public var arrivalRadius: Double
    /// Navigation fails when no VPS fix has been accepted for this long (replay time),
    /// counted from the start of navigation, the last fix, or the last `reset()`.
    public var lostLocalizationTimeout: Duration
    /// Headings within this many degrees of the way to the next waypoint mean straight on.
    public var straightAngle: Double
    /// Headings beyond this many degrees from it mean turn around.
    public var turnAroundAngle: Double

    /// Options with the given radii, angles and timeout; the defaults suit walking indoors.
    public init(waypointRadius: Double = 1.0, arrivalRadius: Double = 1.0,
                lostLocalizationTimeout: Duration = .seconds(10),
                straightAngle: Double = 30, turnAroundAngle: Double = 150) {
        self.waypointRadius = waypointRadius; self.arrivalRadius = arrivalRadius
        self.lostLocalizationTimeout = lostLocalizationTimeout
        self.straightAngle = straightAngle; self.turnAroundAngle = turnAroundAngle
    }

    var followerOptions: RouteFollower.Options {
        .init(waypointRadius: waypointRadius, arrivalRadius: arrivalRadius,
              straightAngle: straightAngle, turnAroundAngle: turnAroundAngle)
    }
}
