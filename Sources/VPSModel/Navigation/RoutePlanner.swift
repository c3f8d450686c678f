import Geometry

/// Shortest routes through a `NavigationGraph` by A*.
///
/// Edges are undirected; parallel edges count with their smallest weight. Edges with a
/// negative or non-finite weight, or naming unknown nodes, are ignored (a map's scene
/// validation refuses them anyway). The heuristic is the straight-line distance to the
/// destination, scaled by the smallest weight-per-metre of any edge (at most 1): with
/// weights that are Euclidean distances (the default) that is plain A*, and graphs whose
/// weights undercut the geometry still get optimal routes (the scaled heuristic stays
/// consistent). Ties break by node order in the graph, so routes are deterministic.
///
/// Pure and `Sendable`: build one per graph and plan as often as needed.
public struct RoutePlanner: Sendable {
    public let graph: NavigationGraph
    private let index: [String: Int]
    /// Neighbours of each node with the edge weight, in graph order.
    private let adjacency: [[(node: Int, weight: Double)]]
    private let heuristicScale: Double

    public init(graph: NavigationGraph) {
        self.graph = graph
        var index: [String: Int] = [:]
        for (i, n) in graph.nodes.enumerated() where index[n.id] == nil { index[n.id] = i }
        var best: [Int: [Int: Double]] = [:]
        var scale = 1.0
        for e in graph.edges {
            guard let a = index[e.from], let b = index[e.to], a != b, e.weight.isFinite, e.weight >= 0 else { continue }
            for (u, v) in [(a, b), (b, a)] { best[u, default: [:]][v] = min(best[u]?[v] ?? .infinity, e.weight) }
            let metres = Geometry.length(graph.nodes[a].position - graph.nodes[b].position)
            if metres > 1e-12 { scale = min(scale, e.weight / metres) }
        }
        self.index = index
        adjacency = graph.nodes.indices.map { u in
            (best[u] ?? [:]).sorted { $0.key < $1.key }.map { (node: $0.key, weight: $0.value) }
        }
        heuristicScale = max(0, scale)
    }

    /// The node nearest to `position` (straight-line distance in 3D; the first in graph
    /// order on a tie), or nil for an empty graph.
    public func nearestNode(to position: SIMD3<Double>) -> NavigationGraph.Node? {
        graph.nodes.min { lengthSquared($0.position - position) < lengthSquared($1.position - position) }
    }

    /// The cheapest route from node `start` to node `destination`.
    /// - Throws: `.unknownNode` for an id the graph lacks; `.noRoute` when they are not connected.
    public func route(from start: String, to destination: String) throws(RoutePlanningError) -> Route {
        guard let s = index[start] else { throw .unknownNode(start) }
        guard let d = index[destination] else { throw .unknownNode(destination) }
        let goal = graph.nodes[d].position
        func h(_ u: Int) -> Double { heuristicScale * Geometry.length(graph.nodes[u].position - goal) }

        var cost = [Double](repeating: .infinity, count: graph.nodes.count)
        var previous = [Int?](repeating: nil, count: graph.nodes.count)
        var closed = [Bool](repeating: false, count: graph.nodes.count)
        var open = MinHeap()
        cost[s] = 0
        open.push(OpenEntry(estimate: h(s), node: s))
        while let entry = open.pop() {
            let u = entry.node
            if closed[u] { continue }
            if u == d { break }
            closed[u] = true
            for (v, w) in adjacency[u] where !closed[v] {
                let candidate = cost[u] + w
                if candidate < cost[v] {
                    cost[v] = candidate
                    previous[v] = u
                    open.push(OpenEntry(estimate: candidate + h(v), node: v))
                }
            }
        }
        guard cost[d].isFinite else { throw .noRoute(from: start, to: destination) }
        var path = [d]
        while let p = previous[path[path.count - 1]] { path.append(p) }
        return Route(nodes: path.reversed().map { graph.nodes[$0] }, cost: cost[d])
    }

    /// The cheapest route from the node nearest `position` to `destination`.
    /// - Throws: `.emptyGraph`, `.unknownNode`, `.noRoute`.
    public func route(from position: SIMD3<Double>, to destination: String) throws(RoutePlanningError) -> Route {
        guard let start = nearestNode(to: position) else { throw .emptyGraph }
        return try route(from: start.id, to: destination)
    }
}

private func lengthSquared(_ v: SIMD3<Double>) -> Double { (v * v).sum() }

private struct OpenEntry {
    var estimate: Double
    var node: Int
    /// Lower estimate first; on a tie, the earlier node in graph order.
    static func < (a: OpenEntry, b: OpenEntry) -> Bool { (a.estimate, a.node) < (b.estimate, b.node) }
}

/// A binary min-heap of open entries (the graphs are small; this keeps A* O(E log V)).
private struct MinHeap {
    private var items: [OpenEntry] = []

    mutating func push(_ e: OpenEntry) {
        items.append(e)
        var i = items.count - 1
        while i > 0 {
            let parent = (i - 1) / 2
            guard items[i] < items[parent] else { break }
            items.swapAt(i, parent)
            i = parent
        }
    }

    mutating func pop() -> OpenEntry? {
        guard !items.isEmpty else { return nil }
        items.swapAt(0, items.count - 1)
        let top = items.removeLast()
        var i = 0
        while true {
            let l = 2 * i + 1, r = l + 1
            var m = i
            if l < items.count, items[l] < items[m] { m = l }
            if r < items.count, items[r] < items[m] { m = r }
            if m == i { break }
            items.swapAt(i, m)
            i = m
        }
        return top
    }
}
