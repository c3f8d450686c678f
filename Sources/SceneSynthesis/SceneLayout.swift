import Foundation
import Geometry
import VPSModel

/// The floor plan of a synthetic scene: axis-aligned rooms and corridors (boxes standing
/// on a floor at their elevation) that connect where they touch at the same elevation.
/// Walls, floors, ceilings, doorways, sections and the navigation graph all derive from it.
///
/// Map frame: metres, +y up, x east, z south. Walls face into their space.
public struct SceneLayout: Sendable, Hashable {
    /// `doorway`: a short passage through a thick wall (a door frame), between a room and
    /// a corridor; walked through, never lingered in.
    public enum SpaceKind: String, Sendable, Hashable { case room, corridor, doorway }

    /// One room or corridor: the box `min`…`max` in (x, z) from its floor at `elevation`
    /// to `height` above it.
    public struct Space: Sendable, Hashable {
        public var id: String
        public var name: String
        public var kind: SpaceKind
        public var min: SIMD2<Double>
        public var max: SIMD2<Double>
        public var height: Double
        /// Height of the floor above the map's y = 0 (the storey a space is on).
        public var elevation: Double
        /// When set, the floor and ceiling textures are shared by every space with the
        /// same finish and size (the same tiles and ceiling panels throughout a building);
        /// nil gives the space textures of its own.
        public var finish: String?

        public init(id: String, name: String, kind: SpaceKind, min: SIMD2<Double>, max: SIMD2<Double>, height: Double,
                    elevation: Double = 0, finish: String? = nil) {
            self.id = id; self.name = name; self.kind = kind; self.min = min; self.max = max; self.height = height
            self.elevation = elevation; self.finish = finish
        }

        /// Whether the floor point `p` (x, z) at height `y` is inside the box.
        public func contains(_ p: SIMD2<Double>, y: Double) -> Bool {
            p.x >= min.x && p.x <= max.x && p.y >= min.y && p.y <= max.y && y >= elevation && y <= elevation + height
        }

        public var center: SIMD2<Double> { (min + max) / 2 }
        public var size: SIMD2<Double> { max - min }
    }

    /// Where two spaces meet: an opening in the wall between them.
    public struct Opening: Sendable, Hashable {
        public var between: (String, String)
        /// Ends of the opening on the floor, in (x, z).
        public var from: SIMD2<Double>
        public var to: SIMD2<Double>
        public var height: Double
        public var center: SIMD2<Double> { (from + to) / 2 }

        public static func == (a: Opening, b: Opening) -> Bool {
            a.between == b.between && a.from == b.from && a.to == b.to && a.height == b.height
        }
        public func hash(into h: inout Hasher) { h.combine(between.0); h.combine(between.1); h.combine(from); h.combine(to) }
    }

    /// Scene name, shared by every session rendered from this layout.
    public var name: String
    public var spaces: [Space]
    /// Hang the same posters and doors throughout (see `ScenePlanner`), as in a building.
    public var fixtures: Bool
    /// An outdoor street instead of rooms: when set, its planes, sections and navigation
    /// graph are the scene's (`spaces` is then empty).
    public var street: StreetLayout?

    public init(name: String, spaces: [Space], fixtures: Bool = false, street: StreetLayout? = nil) {
        self.name = name; self.spaces = spaces; self.fixtures = fixtures; self.street = street
    }

    public func space(_ id: String) -> Space? { spaces.first { $0.id == id } }

    // MARK: Walls

    /// One wall edge of a space, on the floor, oriented so its wall faces into the space.
    struct Edge {
        var side: String
        var a: SIMD2<Double>
        var b: SIMD2<Double>
    }

    static func edges(of s: Space) -> [Edge] {
        let (x0, z0, x1, z1) = (s.min.x, s.min.y, s.max.x, s.max.y)
        // Inward normal = (b - a) × up; see the type comment for the axes.
        return [Edge(side: "north", a: SIMD2(x0, z0), b: SIMD2(x1, z0)),
                Edge(side: "east", a: SIMD2(x1, z0), b: SIMD2(x1, z1)),
                Edge(side: "south", a: SIMD2(x1, z1), b: SIMD2(x0, z1)),
                Edge(side: "west", a: SIMD2(x0, z1), b: SIMD2(x0, z0))]
    }

    /// Intervals (parameters along the edge, metres from `a`) where `edge` of `space` opens
    /// into another space, with the opening height.
    func openings(of edge: Edge, in space: Space) -> [(lo: Double, hi: Double, height: Double, other: String)] {
        let length = PlanarVector.length(edge.b - edge.a)
        let dir = (edge.b - edge.a) / length
        var out: [(Double, Double, Double, String)] = []
        for other in spaces where other.id != space.id && other.elevation == space.elevation {
            for oe in Self.edges(of: other) {
                // Opposite edges on the same line overlap where the spaces touch.
                let od = PlanarVector.normalize(oe.b - oe.a)
                guard PlanarVector.dot(od, dir) < -0.999 else { continue }
                let offset = oe.a - edge.a
                guard abs(offset.x * dir.y - offset.y * dir.x) < 1e-6 else { continue }
                let t1 = PlanarVector.dot(oe.a - edge.a, dir), t2 = PlanarVector.dot(oe.b - edge.a, dir)
                let lo = Swift.max(0, Swift.min(t1, t2)), hi = Swift.min(length, Swift.max(t1, t2))
                if hi - lo > 1e-6 { out.append((lo, hi, Swift.min(space.height, other.height), other.id)) }
            }
        }
        return out.sorted { $0.0 < $1.0 }
    }

    /// Every textured plane: wall pieces (split around openings, with lintels above lower
    /// openings), one floor and one ceiling per space. Texture ids equal plane ids, but
    /// for the floors and ceilings of spaces with a `finish` (see `sharedTexturePrefix`).
    public func planes(ceilings: Bool = true) -> [SceneDescription.Plane] {
        if let street { return street.planes() }
        var planes: [SceneDescription.Plane] = []
        for s in spaces {
            let e = s.elevation
            func p3(_ p: SIMD2<Double>, _ y: Double) -> SIMD3<Double> { SIMD3(p.x, y + e, p.y) }
            for e in Self.edges(of: s) {
                let length = PlanarVector.length(e.b - e.a)
                let dir = (e.b - e.a) / length
                var cursor = 0.0
                var piece = 0
                func wall(_ lo: Double, _ hi: Double, _ y0: Double, _ y1: Double, _ label: String) {
                    guard hi - lo > 0.02, y1 - y0 > 0.02 else { return }
                    let a = e.a + dir * lo, b = e.a + dir * hi
                    piece += 1
                    planes.append(.init(id: "\(s.id)/\(e.side)-\(label)\(piece)", sectionId: s.id, kind: .wall,
                                        texture: "\(s.id)/\(e.side)-\(label)\(piece)",
                                        corners: [p3(a, y0), p3(b, y0), p3(b, y1), p3(a, y1)]))
                }
                for o in openings(of: e, in: s) {
                    wall(cursor, o.lo, 0, s.height, "wall")
                    if s.height > o.height + 0.02 { wall(o.lo, o.hi, o.height, s.height, "lintel") }
                    cursor = Swift.max(cursor, o.hi)
                }
                wall(cursor, length, 0, s.height, "wall")
            }
            let (x0, z0, x1, z1) = (s.min.x, s.min.y, s.max.x, s.max.y)
            // A finish names its size too: a shared texture must not stretch over other sizes.
            let texturePrefix = s.finish.map {
                "\(Self.sharedTexturePrefix)\($0)-\(Int((s.size.x * 100).rounded()))x\(Int((s.size.y * 100).rounded()))"
            } ?? s.id
            planes.append(.init(id: "\(s.id)/floor", sectionId: s.id, kind: .floor, texture: "\(texturePrefix)/floor",
                                corners: [SIMD3(x0, e, z1), SIMD3(x1, e, z1), SIMD3(x1, e, z0), SIMD3(x0, e, z0)]))
            if ceilings {
                let h = s.height + e
                planes.append(.init(id: "\(s.id)/ceiling", sectionId: s.id, kind: .ceiling, texture: "\(texturePrefix)/ceiling",
                                    corners: [SIMD3(x0, h, z0), SIMD3(x1, h, z0), SIMD3(x1, h, z1), SIMD3(x0, h, z1)]))
            }
        }
        return planes
    }

    /// Texture ids starting with this are shared by many planes (finishes, fixtures): they
    /// are drawn once and look the same wherever they are.
    public static let sharedTexturePrefix = "shared/"

    /// Openings between spaces, each once.
    public var openings: [Opening] {
        var out: [Opening] = []
        for (i, s) in spaces.enumerated() {
            for e in Self.edges(of: s) {
                let dir = PlanarVector.normalize(e.b - e.a)
                for o in openings(of: e, in: s) {
                    guard let j = spaces.firstIndex(where: { $0.id == o.other }), j > i else { continue }
                    out.append(Opening(between: (s.id, o.other), from: e.a + dir * o.lo, to: e.a + dir * o.hi,
                                       height: o.height))
                }
            }
        }
        return out
    }

    /// One section per space, bounded by its box.
    public var sections: [MapSection] {
        if let street { return street.sections }
        return spaces.map { MapSection(id: $0.id, name: $0.name, boundsMin: SIMD3($0.min.x, $0.elevation, $0.min.y),
                                boundsMax: SIMD3($0.max.x, $0.elevation + $0.height, $0.max.y)) }
    }

    /// Nodes at room centres and doorway centres (on the floor); edges from each room
    /// centre to its doorways and between the doorways of each corridor, Euclidean weights.
    public var navigationGraph: NavigationGraph {
        if let street { return street.navigationGraph }
        var nodes: [NavigationGraph.Node] = []
        var edges: [NavigationGraph.Edge] = []
        var nodesOfSpace: [String: [NavigationGraph.Node]] = [:]
        for s in spaces where s.kind == .room {
            let n = NavigationGraph.Node(id: s.id, name: s.name, position: SIMD3(s.center.x, s.elevation, s.center.y),
                                         sectionId: s.id)
            nodes.append(n); nodesOfSpace[s.id, default: []].append(n)
        }
        for o in openings {
            let (a, b) = o.between
            let room = [a, b].first { space($0)?.kind == .room } ?? a
            let n = NavigationGraph.Node(id: "door-\(a)-\(b)",
                                         name: "Doorway \(space(a)?.name ?? a) – \(space(b)?.name ?? b)",
                                         position: SIMD3(o.center.x, space(a)?.elevation ?? 0, o.center.y), sectionId: room)
            nodes.append(n)
            nodesOfSpace[a, default: []].append(n); nodesOfSpace[b, default: []].append(n)
        }
        for s in spaces {
            let ns = nodesOfSpace[s.id] ?? []
            for i in 0..<ns.count {
                for j in (i + 1)..<Swift.max(i + 1, ns.count) {
                    // Rooms: centre to each doorway. Corridors and doorways: doorway to doorway.
                    if s.kind == .room && ns[i].id != s.id && ns[j].id != s.id { continue }
                    edges.append(.init(from: ns[i].id, to: ns[j].id,
                                       weight: (length(ns[i].position - ns[j].position) * 1000).rounded() / 1000))
                }
            }
        }
        return NavigationGraph(nodes: nodes, edges: edges)
    }
}

extension SceneLayout {
    /// Layout names `dataset synth --layout` accepts.
    public static let presetNames = ["gallery", "studio", "building", "street"]

    /// A preset floor plan with sizes jittered by `seed` (centimetre steps); `building`
    /// is regular, of `building` size, whatever the seed; `street` is outdoors (`StreetLayout`).
    public static func preset(_ name: String, seed: UInt64, building: BuildingSize = BuildingSize()) -> SceneLayout? {
        if name == "building" { return BuildingLayout.layout(building) }
        if name == "street" { return StreetLayout.make(seed: seed).sceneLayout }
        var rng = SeededRandom(seed: seed, stream: "layout/\(name)")
        func j(_ v: Double, _ amount: Double = 0.4) -> Double { ((v + rng.uniform(-amount...amount)) * 100).rounded() / 100 }
        /// A room at the origin (nominal far corner `room`), a corridor `width` wide running +x
        /// from the middle of its far wall (nominally `length` long, ± `jitter`), and a second
        /// room beyond it (nominal far corner `next`), both rooms `height` high.
        func roomCorridorRoom(_ first: (id: String, name: String), _ room: SIMD2<Double>, height: Double,
                              corridor: (id: String, name: String), length: Double, jitter: Double, width: Double,
                              corridorHeight: Double, _ second: (id: String, name: String), _ next: SIMD2<Double>)
            -> (Space, Space, Space) {
            let a = Space(id: first.id, name: first.name, kind: .room, min: SIMD2(0, 0), max: SIMD2(j(room.x), j(room.y)),
                          height: height)
            let z = (a.max.y / 2 - width / 2).rounded(toPlaces: 2)
            let c = Space(id: corridor.id, name: corridor.name, kind: .corridor, min: SIMD2(a.max.x, z),
                          max: SIMD2(a.max.x + j(length, jitter), z + width), height: corridorHeight)
            let b = Space(id: second.id, name: second.name, kind: .room, min: SIMD2(c.max.x, j(-0.5, 0.3)),
                          max: SIMD2(c.max.x + j(next.x), j(next.y)), height: height)
            return (a, c, b)
        }
        switch name {
        case "gallery":
            // Room A —corridor 1— Room B, and Room C south of B through corridor 2.
            let (a, c1, b) = roomCorridorRoom(("room-a", "Room A"), SIMD2(6, 5), height: 3,
                                              corridor: ("corridor-1", "Corridor 1"), length: 4, jitter: 0.5, width: 2,
                                              corridorHeight: 2.5, ("room-b", "Room B"), SIMD2(7, 6))
            let c2x = (b.min.x + b.size.x / 2 - 1 + rng.uniform(-0.5...0.5)).rounded(toPlaces: 2)
            let c2 = Space(id: "corridor-2", name: "Corridor 2", kind: .corridor, min: SIMD2(c2x, b.max.y),
                           max: SIMD2(c2x + 2, b.max.y + j(3, 0.4)), height: 2.5)
            let c = Space(id: "room-c", name: "Room C", kind: .room, min: SIMD2(c2x - j(1.8, 0.3), c2.max.y),
                          max: SIMD2(c2x + 2 + j(2.2, 0.3), c2.max.y + j(5)), height: 3)
            return SceneLayout(name: "gallery", spaces: [a, c1, b, c2, c])
        case "studio":
            // Two rooms of another size and height joined by a short passage.
            let (d, p, e) = roomCorridorRoom(("room-d", "Studio"), SIMD2(5, 4), height: 2.8,
                                             corridor: ("passage", "Passage"), length: 1.5, jitter: 0.3, width: 1.6,
                                             corridorHeight: 2.3, ("room-e", "Workshop"), SIMD2(4.5, 4.8))
            return SceneLayout(name: "studio", spaces: [d, p, e])
        default:
            return nil
        }
    }
}

fileprivate extension Double {
    func rounded(toPlaces places: Int) -> Double {
        let m = pow(10, Double(places))
        return (self * m).rounded() / m
    }
}
