/// A map's navigation graph: named nodes joined by weighted, undirected edges.
public struct NavigationGraph: Sendable, Hashable, Codable {
    public struct Node: Sendable, Hashable, Codable, Identifiable {
        public var id: String
        /// Human-readable name, e.g. "Gallery entrance".
        public var name: String
        /// Position in the map frame (metres).
        public var position: SIMD3<Double>
        public var sectionId: String

        public init(id: String, name: String, position: SIMD3<Double>, sectionId: String) {
            self.id = id; self.name = name; self.position = position; self.sectionId = sectionId
        }
    }

    public struct Edge: Sendable, Hashable, Codable {
        public var from: String
        public var to: String
        /// Traversal cost; by default the Euclidean distance between the nodes.
        public var weight: Double

        public init(from: String, to: String, weight: Double) {
            self.from = from; self.to = to; self.weight = weight
        }
    }

    public var nodes: [Node]
    public var edges: [Edge]

    public init(nodes: [Node] = [], edges: [Edge] = []) { self.nodes = nodes; self.edges = edges }
}
