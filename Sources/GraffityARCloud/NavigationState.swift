/// Progress of turn-by-turn navigation to a node of the map's navigation graph.
///
/// Present in `State.navigation` from `startNavigation(to:)` until `stopNavigation()` or a
/// navigation failure (on arrival it stays, with `hasArrived`, until stopped). The route
/// runs along the graph from the node nearest the localized camera; progress follows the
/// camera pose (the last VPS fix carried forward by odometry) frame by frame. Distances
/// are on the floor plane (the map's x–z plane), to the centimetre.
public struct NavigationState: Sendable, Hashable {
    /// Id of the destination node.
    public var destination: String
    /// Ids of the nodes still ahead, the next one first, the destination last. Empty until
    /// a route is planned (the camera is not localized yet) and on arrival.
    public var remainingWaypoints: [String]
    /// Metres from the camera to the next waypoint and on along the route; nil until a
    /// route is planned, 0 on arrival.
    public var remainingDistance: Double?
    /// What to do next, when known.
    public var hint: NavigationHint?
    /// True once the camera has reached the destination.
    public var hasArrived: Bool

    /// A navigation state; the defaults describe guidance waiting for its first fix.
    public init(destination: String, remainingWaypoints: [String] = [], remainingDistance: Double? = nil,
                hint: NavigationHint? = nil, hasArrived: Bool = false) {
        self.destination = destination; self.remainingWaypoints = remainingWaypoints
        self.remainingDistance = remainingDistance; self.hint = hint; self.hasArrived = hasArrived
    }

    /// True while guidance waits for the first pose to plan a route.
    public var isWaitingForLocalization: Bool { remainingDistance == nil && !hasArrived }
}

/// The next instruction of a route, relative to the camera's heading: the direction of
/// the next waypoint on the floor plane (within 30° ahead is straight on, beyond 150°
/// behind is turning around; `Configuration.navigation` sets the angles).
public enum NavigationHint: String, Sendable, Hashable, Codable {
    case continueStraight
    case turnLeft
    case turnRight
    case turnAround
    case arrived
}
