/// A milestone of navigation.
public enum NavigationEvent: Sendable, Hashable {
    /// A route to `destination` was planned and guidance started; `route` lists the node
    /// ids to walk through, from the node nearest the camera to the destination.
    case started(destination: String, route: [String])
    /// The camera passed waypoint `nodeId` (reached it, or went past it along the route).
    case waypointReached(nodeId: String)
    /// The camera reached `destination`.
    case arrived(destination: String)
    /// Navigation to `destination` ended without arriving: unknown destination, no route,
    /// or localization lost for longer than `NavigationOptions.lostLocalizationTimeout`.
    case failed(destination: String, reason: String)
    /// `stopNavigation()` (or a new `startNavigation(to:)`) ended guidance.
    case stopped(destination: String)
}
