import Geometry

/// A path through a map's navigation graph, found by `RoutePlanner`.
public struct Route: Sendable, Hashable {
    /// The nodes to walk through, the start first and the destination last (one node when
    /// start and destination are the same).
    public var nodes: [NavigationGraph.Node]
    /// Sum of the edge weights along the route: what the planner minimised.
    public var cost: Double

    public init(nodes: [NavigationGraph.Node], cost: Double) {
        precondition(!nodes.isEmpty, "a route has at least one node")
        self.nodes = nodes; self.cost = cost
    }

    public var nodeIds: [String] { nodes.map(\.id) }
    public var start: NavigationGraph.Node { nodes[0] }
    public var destination: NavigationGraph.Node { nodes[nodes.count - 1] }

    /// Metres along the route between node positions (in 3D).
    public var length: Double {
        zip(nodes, nodes.dropFirst()).reduce(0) { $0 + Geometry.length($1.1.position - $1.0.position) }
    }
}
