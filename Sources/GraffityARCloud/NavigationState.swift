/// Progress of turn-by-turn navigation to a node of the map's navigation graph.
///
/// Present in `State.navigation` while navigation runs (and on arrival, until it is
/// stopped). The route runs along the graph from the node nearest the localized camera.
public struct NavigationState: Sendable, Hashable {
    /// Id of the destination node.
    public var destination: String
    /// Ids of the nodes still ahead, the next one first, the destination last.
    public var remainingWaypoints: [String]
    /// Metres along the route from the camera to the destination.
    public var remainingDistance: Double
    /// What to do next, when known.
    public var hint: NavigationHint?
    /// True once the camera has reached the destination.
    public var hasArrived: Bool

    public init(destination: String, remainingWaypoints: [String], remainingDistance: Double,
                hint: NavigationHint? = nil, hasArrived: Bool = false) {
        self.destination = destination; self.remainingWaypoints = remainingWaypoints
        self.remainingDistance = remainingDistance; self.hint = hint; self.hasArrived = hasArrived
    }
}

/// The next instruction of a route, relative to the camera's heading.
public enum NavigationHint: String, Sendable, Hashable, Codable {
    case continueStraight
    case turnLeft
    case turnRight
    case turnAround
    case arrived
}
