/// Why `RoutePlanner` found no route.
public enum RoutePlanningError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The graph has no node with this id.
    case unknownNode(String)
    /// Both nodes exist but no chain of usable edges joins them.
    case noRoute(from: String, to: String)
    /// The graph has no nodes at all.
    case emptyGraph

    public var description: String {
        switch self {
        case .unknownNode(let id): "the navigation graph has no node '\(id)'"
        case let .noRoute(from, to): "no route from '\(from)' to '\(to)' in the navigation graph"
        case .emptyGraph: "the map has no navigation graph"
        }
    }
}
