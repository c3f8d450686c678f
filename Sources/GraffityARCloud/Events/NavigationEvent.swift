/// A milestone of navigation.
public enum NavigationEvent: Sendable, Hashable {
    /// A route to `destination` was found and guidance started.
    case started(destination: String)
    /// The camera passed waypoint `nodeId`.
    case waypointReached(nodeId: String)
    /// The camera reached `destination`.
    case arrived(destination: String)
    /// Navigation to `destination` ended without arriving (no route, localization lost
    /// for too long, ...).
    case failed(destination: String, reason: String)
    /// `stopNavigation()` ended guidance.
    case stopped(destination: String)
}
