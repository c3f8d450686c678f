import Geometry
import Testing
import VPSModel
import Support

@Suite("Route planner (A*)")
struct RoutePlannerTests {
    static func node(_ id: String, _ x: Double, _ z: Double) -> NavigationGraph.Node {
        .init(id: id, name: id.uppercased(), position: SIMD3(x, 0, z), sectionId: "s")
    }

    /// Euclidean edge weights, as the scene generator writes them.
    static func graph(_ nodes: [NavigationGraph.Node], _ pairs: [(String, String)]) -> NavigationGraph {
        let at = Dictionary(uniqueKeysWithValues: nodes.map { ($0.id, $0.position) })
        return NavigationGraph(nodes: nodes, edges: pairs.map { a, b in
            .init(from: a, to: b, weight: length(at[a]! - at[b]!))
        })
    }

    /// Two rooms joined by a door at (5, 0), and a long corridor around the wall.
    static let rooms = graph(
        [node("a", 0, 0), node("door", 5, 0), node("b", 10, 0), node("c1", 0, 8), node("c2", 10, 8)],
        [("a", "door"), ("door", "b"), ("a", "c1"), ("c1", "c2"), ("c2", "b")])

    @Test func takesTheShortestWay() throws {
        let route = try RoutePlanner(graph: Self.rooms).route(from: "a", to: "b")
        #expect(route.nodeIds == ["a", "door", "b"])
        #expect(abs(route.cost - 10) < 1e-12)
        #expect(abs(route.length - 10) < 1e-12)
        // Undirected: the way back is the same.
        #expect(try RoutePlanner(graph: Self.rooms).route(from: "b", to: "a").nodeIds == ["b", "door", "a"])
    }

    /// `rooms` with both door edges weighted `door`, and the corridor edge c1–c2 `walkway`.
    static func rooms(door: Double, walkway: Double? = nil) -> NavigationGraph {
        var g = rooms
        g.edges = g.edges.map { e in
            var e = e
            if let walkway, e.from == "c1" && e.to == "c2" { e.weight = walkway }
            if e.from == "door" || e.to == "door" { e.weight = door }
            return e
        }
        return g
    }

    @Test func weightsNotDistancesDecide() throws {
        // A crowded door: its edges cost far more than their length.
        let route = try RoutePlanner(graph: Self.rooms(door: 50)).route(from: "a", to: "b")
        #expect(route.nodeIds == ["a", "c1", "c2", "b"])
        #expect(abs(route.cost - 26) < 1e-12)
    }

    @Test func weightsBelowTheGeometryStillGiveTheCheapestRoute() throws {
        // A moving walkway along the corridor: much cheaper than its length. A heuristic of
        // plain distance would overestimate and could settle for the door.
        let route = try RoutePlanner(graph: Self.rooms(door: 9, walkway: 0.5)).route(from: "a", to: "b")
        #expect(route.nodeIds == ["a", "c1", "c2", "b"])
        #expect(abs(route.cost - 16.5) < 1e-12)
    }

    @Test func agreesWithExhaustiveShortestPathsOnRandomGraphs() throws {
        var rng = SplitMix64(seed: 3)
        for _ in 0..<40 {
            let n = 12
            let nodes = (0..<n).map { Self.node("n\($0)", rng.unit() * 20, rng.unit() * 20) }
            var edges: [NavigationGraph.Edge] = []
            for i in 0..<n { for j in (i + 1)..<n where rng.unit() < 0.25 {
                let metres = length(nodes[i].position - nodes[j].position)
                edges.append(.init(from: nodes[i].id, to: nodes[j].id, weight: metres * (0.3 + rng.unit() * 2)))
            } }
            let g = NavigationGraph(nodes: nodes, edges: edges)
            let exact = floydWarshall(g)
            let planner = RoutePlanner(graph: g)
            for (s, d) in [(0, n - 1), (1, 5), (7, 2)] {
                if exact[s][d].isFinite {
                    let route = try planner.route(from: nodes[s].id, to: nodes[d].id)
                    #expect(abs(route.cost - exact[s][d]) < 1e-9)
                    #expect(route.start.id == nodes[s].id && route.destination.id == nodes[d].id)
                    // The reported cost is the sum of the edges actually walked.
                    let walked = zip(route.nodeIds, route.nodeIds.dropFirst()).map { a, b in
                        edges.filter { ($0.from, $0.to) == (a, b) || ($0.from, $0.to) == (b, a) }.map(\.weight).min()!
                    }.reduce(0, +)
                    #expect(abs(walked - route.cost) < 1e-9)
                } else {
                    #expect(throws: RoutePlanningError.noRoute(from: nodes[s].id, to: nodes[d].id)) {
                        try planner.route(from: nodes[s].id, to: nodes[d].id)
                    }
                }
            }
        }
    }

    @Test func unknownNodesAndDisconnectedGraphs() throws {
        var g = Self.rooms
        g.nodes.append(Self.node("island", 50, 50))
        let planner = RoutePlanner(graph: g)
        #expect(throws: RoutePlanningError.unknownNode("nowhere")) { try planner.route(from: "a", to: "nowhere") }
        #expect(throws: RoutePlanningError.noRoute(from: "a", to: "island")) { try planner.route(from: "a", to: "island") }
        #expect(throws: RoutePlanningError.emptyGraph) {
            try RoutePlanner(graph: NavigationGraph()).route(from: SIMD3(0, 0, 0), to: "a")
        }
        let here = try planner.route(from: "b", to: "b")
        #expect(here.nodeIds == ["b"] && here.cost == 0)
    }

    @Test func startsAtTheNodeNearestThePosition() throws {
        let planner = RoutePlanner(graph: Self.rooms)
        #expect(planner.nearestNode(to: SIMD3(9, 1.5, 7))?.id == "c2")
        #expect(planner.nearestNode(to: SIMD3(4, 1.5, 1))?.id == "door")
        let route = try planner.route(from: SIMD3(9, 1.5, 7), to: "door")
        #expect(route.nodeIds == ["c2", "b", "door"])
    }
}

/// All-pairs shortest path costs, the slow sure way.
func floydWarshall(_ g: NavigationGraph) -> [[Double]] {
    let n = g.nodes.count
    let index = Dictionary(uniqueKeysWithValues: g.nodes.enumerated().map { ($1.id, $0) })
    var d = [[Double]](repeating: [Double](repeating: .infinity, count: n), count: n)
    for i in 0..<n { d[i][i] = 0 }
    for e in g.edges {
        let a = index[e.from]!, b = index[e.to]!
        d[a][b] = min(d[a][b], e.weight); d[b][a] = min(d[b][a], e.weight)
    }
    for k in 0..<n { for i in 0..<n { for j in 0..<n where d[i][k] + d[k][j] < d[i][j] { d[i][j] = d[i][k] + d[k][j] } } }
    return d
}

