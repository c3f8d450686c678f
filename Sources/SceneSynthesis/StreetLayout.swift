import Foundation
import Geometry
import VPSModel

/// The `street` layout: a straight street between two rows of buildings, walked forward,
/// that opens at its east end onto a plaza with a skyline of far buildings behind it.
///
/// Map frame as everywhere: metres, +y up, x east, z south. The street runs along +x with
/// its centre line at z = 0; the north row's facades face south (+z), the south row's face
/// north (−z). Each building is a roofless box seen from the street: its facade (windows,
/// shop fronts), and its two side walls, `depth` deep, which show as returns where a
/// neighbour is set back and as gables above a lower neighbour. The ground is cut into
/// `groundSegment`-long pieces (road, kerbs and pavements repeat along it); past the
/// street's end a plaza and a coarse far ground reach the skyline, whose buildings face
/// west down the street, from 50 to 300 m beyond the end of the walking routes.
public struct StreetLayout: Sendable, Hashable {
    public enum Side: String, Sendable, Hashable { case north, south }

    /// One building of a row: `from`…`to` along x, its facade `setback` metres behind the
    /// building line (z = ∓`halfWidth`). Buildings of one terrace share their facade's
    /// `design` (the id of the terrace's first building), height and setback.
    public struct Building: Sendable, Hashable {
        public var id: String
        public var side: Side
        public var from: Double
        public var to: Double
        public var height: Double
        public var setback: Double
        public var design: String
    }

    /// A building of the skyline: its west face at `x`, centred on `z`, `depth` deep.
    public struct FarBuilding: Sendable, Hashable {
        public var id: String
        public var x: Double
        public var z: Double
        public var width: Double
        public var height: Double
        public var depth: Double
    }

    /// From the centre line to the building line: the street is twice this between facades.
    public var halfWidth: Double
    /// Where the rows of buildings begin and end along x; the plaza starts at `end`.
    public var start: Double
    public var end: Double
    /// The stretch of the centre line the routes walk (x).
    public var route: ClosedRange<Double>
    public var buildings: [Building]
    public var far: [FarBuilding]

    /// Depth of the street's buildings (their side walls), length of the plaza, length of a
    /// piece of street ground, and how far the far ground reaches past the last far building.
    public static let depth = 12.0, plazaLength = 30.0, groundSegment = 10.0, farMargin = 40.0
    /// Distances beyond the end of the routes that the skyline spans.
    public static let skylineDistances = 50.0...300.0
    /// Width of the pavements (from the building line to the kerb).
    public static let pavement = 3.0

    /// The street of `seed`: its width, the widths, heights and setbacks of its buildings
    /// and the skyline vary with it; the routes' stretch and the street's length do not.
    public static func make(seed: UInt64) -> StreetLayout {
        var rng = SeededRandom(seed: seed, stream: "layout/street")
        func cm(_ v: Double) -> Double { (v * 100).rounded() / 100 }
        let halfWidth = cm(rng.uniform(6.5...7.5))
        let route = 0.0...96.0
        // The rows end a few metres past the routes: their last frames look out over the
        // plaza at the skyline.
        let start = -20.0, end = route.upperBound + 8
        var buildings: [Building] = []
        for side in [Side.north, .south] {
            var x = start
            var n = 0
            var terrace: Building? = nil
            while x < end - 0.5 {
                n += 1
                let id = "\(side == .north ? "n" : "s")\(n < 10 ? "0" : "")\(n)"
                // Three in four buildings continue the terrace before them: the same design,
                // height and setback, about the same width.
                var b: Building
                if let t = terrace, rng.chance(0.75) {
                    let width = min(17, max(8, t.to - t.from + rng.uniform(-0.4...0.4)))
                    b = Building(id: id, side: side, from: x, to: x + cm(width),
                                 height: t.height, setback: t.setback, design: t.design)
                } else {
                    b = Building(id: id, side: side, from: x, to: x + cm(rng.uniform(8...17)), height: cm(rng.uniform(10...20)),
                                 setback: rng.pick([0, 0, 0, 0.3, 0.6]), design: id)
                }
                // No sliver at the end: the last building takes what is left.
                if end - b.to < 6 { b.to = end }
                b.to = cm(b.to)
                buildings.append(b)
                terrace = b
                x = b.to
            }
        }
        // The skyline: one building per stretch of distance beyond the routes' end, farther
        // ones taller (they rise above nearer ones); every third on the street's axis, seen
        // down the street from its far end.
        var far: [FarBuilding] = []
        let count = 11
        let span = skylineDistances.upperBound - skylineDistances.lowerBound
        for k in 0..<count {
            let d = skylineDistances.lowerBound + 5 + (span - 10) * (Double(k) + rng.uniform(0.1...0.9)) / Double(count)
            let onAxis = k % 3 == 1
            let spread = onAxis ? 6 : 0.3 * d
            far.append(FarBuilding(id: "far-\(k + 1 < 10 ? "0" : "")\(k + 1)", x: cm(route.upperBound + d),
                                   z: cm(rng.uniform(-spread...spread)), width: cm(rng.uniform(25...60)),
                                   height: cm(16 + 0.2 * d + rng.uniform(0...22)), depth: 12))
        }
        return StreetLayout(halfWidth: halfWidth, start: start, end: end, route: route, buildings: buildings, far: far)
    }

    /// The layout the generator renders: no rooms, this street's planes.
    public var sceneLayout: SceneLayout { SceneLayout(name: "street", spaces: [], street: self) }

    // MARK: Planes

    /// z of a building's facade.
    public func facadeZ(_ b: Building) -> Double {
        b.side == .north ? -(halfWidth + b.setback) : halfWidth + b.setback
    }

    /// Every textured plane: per building its facade and side walls, the street ground in
    /// pieces, the plaza, the far ground, and per far building its west face and the side
    /// that faces the street's axis. Plane ids are texture ids, all under `street/`, but
    /// for the facades, whose texture ids also name their design (`<plane id>/<design>`).
    public func planes() -> [SceneDescription.Plane] {
        var planes: [SceneDescription.Plane] = []
        let up = SIMD3<Double>(0, 1, 0)
        /// A vertical quad from `a` to `b` on the ground (left to right seen from its front).
        func wall(_ id: String, _ section: String, _ a: SIMD2<Double>, _ b: SIMD2<Double>, _ y0: Double, _ y1: Double,
                  texture: String? = nil) {
            let bl = SIMD3(a.x, y0, a.y), br = SIMD3(b.x, y0, b.y)
            planes.append(.init(id: id, sectionId: section, kind: .wall, texture: texture ?? id,
                                corners: [bl, br, br + up * (y1 - y0), bl + up * (y1 - y0)]))
        }
        /// A ground quad over x0…x1, z0…z1 (texture top at z0, as the floors of rooms).
        func ground(_ id: String, _ section: String, _ x0: Double, _ x1: Double, _ z0: Double, _ z1: Double) {
            planes.append(.init(id: id, sectionId: section, kind: .floor, texture: id,
                                corners: [SIMD3(x0, 0, z1), SIMD3(x1, 0, z1), SIMD3(x1, 0, z0), SIMD3(x0, 0, z0)]))
        }
        for b in buildings {
            let z = facadeZ(b), back = z + (b.side == .north ? -Self.depth : Self.depth)
            let p = "street/\(b.id)"
            // Its own texture (each window a little different), in its terrace's design.
            let facade = "\(p)/facade/\(b.design)"
            if b.side == .north {
                wall("\(p)/facade", "street", SIMD2(b.from, z), SIMD2(b.to, z), 0, b.height, texture: facade)
                wall("\(p)/side-west", "street", SIMD2(b.from, back), SIMD2(b.from, z), 0, b.height)
                wall("\(p)/side-east", "street", SIMD2(b.to, z), SIMD2(b.to, back), 0, b.height)
            } else {
                wall("\(p)/facade", "street", SIMD2(b.to, z), SIMD2(b.from, z), 0, b.height, texture: facade)
                wall("\(p)/side-west", "street", SIMD2(b.from, z), SIMD2(b.from, back), 0, b.height)
                wall("\(p)/side-east", "street", SIMD2(b.to, back), SIMD2(b.to, z), 0, b.height)
            }
        }
        // The ground reaches under the facades set back furthest.
        let edge = halfWidth + 1
        var x = start, k = 0
        while x < end - 1e-9 {
            k += 1
            let x1 = min(end, x + Self.groundSegment)
            ground("street/ground-\(k < 10 ? "0" : "")\(k)", "street", x, x1, -edge, edge)
            x = x1
        }
        let plazaEnd = end + Self.plazaLength
        let reach = farExtent
        ground("street/plaza", "plaza", end, plazaEnd, -reach.z, reach.z)
        ground("street/far-ground", "plaza", plazaEnd, reach.x, -reach.z, reach.z)
        for f in far {
            let p = "street/\(f.id)"
            let north = f.z - f.width / 2, south = f.z + f.width / 2
            wall("\(p)/front", "plaza", SIMD2(f.x, north), SIMD2(f.x, south), 0, f.height)
            // The side toward the axis: its north side when it stands south of it.
            if f.z >= 0 {
                wall("\(p)/side", "plaza", SIMD2(f.x + f.depth, north), SIMD2(f.x, north), 0, f.height)
            } else {
                wall("\(p)/side", "plaza", SIMD2(f.x, south), SIMD2(f.x + f.depth, south), 0, f.height)
            }
        }
        return planes
    }

    /// How far east (x) and to either side (|z|) the far ground reaches.
    var farExtent: (x: Double, z: Double) {
        let x = (far.map { $0.x + $0.depth }.max() ?? end + Self.plazaLength) + Self.farMargin
        let z = max(60, (far.map { abs($0.z) + $0.width / 2 }.max() ?? 0) + Self.farMargin)
        return (x.rounded(.up), z.rounded(.up))
    }

    // MARK: Sections and navigation

    /// Two sections: the street between its facades (with its buildings' side walls), and
    /// the plaza with the skyline.
    public var sections: [MapSection] {
        let tallest = buildings.map(\.height).max() ?? 20
        let reach = farExtent
        let highest = far.map(\.height).max() ?? 50
        return [MapSection(id: "street", name: "Street", boundsMin: SIMD3(start, 0, -(halfWidth + Self.depth + 1)),
                           boundsMax: SIMD3(end, tallest, halfWidth + Self.depth + 1)),
                MapSection(id: "plaza", name: "Plaza and skyline", boundsMin: SIMD3(end, 0, -reach.z),
                           boundsMax: SIMD3(reach.x, highest, reach.z))]
    }

    /// Nodes along the centre line (the west end of the routes, their middle, the street's
    /// east end) and in the plaza, joined in a chain with Euclidean weights.
    public var navigationGraph: NavigationGraph {
        let nodes = [NavigationGraph.Node(id: "street-west", name: "Street, west end", position: SIMD3(route.lowerBound, 0, 0),
                                          sectionId: "street"),
                     .init(id: "street-middle", name: "Street, middle",
                           position: SIMD3((route.lowerBound + route.upperBound) / 2, 0, 0), sectionId: "street"),
                     .init(id: "street-east", name: "Street, east end", position: SIMD3(end - 2, 0, 0), sectionId: "street"),
                     .init(id: "plaza", name: "Plaza", position: SIMD3(end + Self.plazaLength / 2, 0, 0), sectionId: "plaza")]
        let edges = zip(nodes, nodes.dropFirst()).map { a, b in
            NavigationGraph.Edge(from: a.id, to: b.id, weight: (length(a.position - b.position) * 1000).rounded() / 1000)
        }
        return NavigationGraph(nodes: nodes, edges: edges)
    }
}
