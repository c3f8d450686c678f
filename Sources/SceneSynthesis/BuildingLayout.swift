import Foundation

/// How big a synthetic building is: storeys, wings per storey, rooms per wing.
public struct BuildingSize: Sendable, Hashable, CustomStringConvertible {
    public var floors: Int
    public var wings: Int
    public var rooms: Int

    public init(floors: Int = 1, wings: Int = 2, rooms: Int = 6) {
        self.floors = floors; self.wings = wings; self.rooms = rooms
    }

    /// Limits `dataset synth` accepts (the largest is well over 10 M map points).
    public static let floorRange = 1...20, wingRange = 1...40, roomRange = 1...40

    /// Why this size cannot be built, or nil.
    public var problem: String? {
        if !Self.floorRange.contains(floors) { return "floors must be \(Self.floorRange.lowerBound)...\(Self.floorRange.upperBound)" }
        if !Self.wingRange.contains(wings) { return "wings must be \(Self.wingRange.lowerBound)...\(Self.wingRange.upperBound)" }
        if !Self.roomRange.contains(rooms) { return "rooms per wing must be \(Self.roomRange.lowerBound)...\(Self.roomRange.upperBound)" }
        return nil
    }

    public var totalRooms: Int { floors * wings * rooms }

    public var description: String { "\(floors) floor(s) × \(wings) wing(s) × \(rooms) room(s)" }
}

/// The `building` floor plan: storeys stacked 4 m apart, each the same plan. A hall runs
/// along x at the south of every storey, one segment per wing (the segments open into each
/// other); from each segment a wing corridor runs north, lined on both sides by rooms of one
/// size, each entered through a doorway in a 0.3 m wall (rooms 0 and 1 face each other
/// nearest the hall, west and east, then rooms 2 and 3, and so on). Rooms, corridors and halls of a kind are the same size everywhere,
/// and so are their floors and ceilings (shared finishes), as in a real office building.
///
/// Ids: `f<F>-hall-<W>`, `f<F>-w<W>-corridor`, `f<F>-w<W>-r<R>`, `f<F>-w<W>-r<R>-door`.
/// A wing's plan does not depend on how many wings or floors there are.
public enum BuildingLayout {
    static let storey = 4.0
    static let roomSize = SIMD2(6.0, 5.0)
    static let wall = 0.2, doorwayDepth = 0.3, doorwayWidth = 1.2
    static let corridorWidth = 2.2, hallDepth = 3.0
    static let roomHeight = 3.0, corridorHeight = 2.7, hallHeight = 3.2, doorHeight = 2.1
    /// x extent of one wing and its hall segment: rooms, doorways and corridor, plus a wall.
    static var wingPitch: Double { 2 * (roomSize.x + doorwayDepth) + corridorWidth + 2 * wall }

    /// The layout of a building of `size`.
    public static func layout(_ size: BuildingSize) -> SceneLayout {
        var spaces: [SceneLayout.Space] = []
        let pairs = (size.rooms + 1) / 2
        for f in 0..<size.floors {
            let e = Double(f) * storey
            for w in 0..<size.wings {
                let x0 = Double(w) * wingPitch
                spaces.append(.init(id: "f\(f)-hall-\(w)", name: "Floor \(f) hall \(w)", kind: .corridor,
                                    min: SIMD2(x0, 0), max: SIMD2(x0 + wingPitch, hallDepth), height: hallHeight,
                                    elevation: e, finish: "hall"))
                let cx0 = x0 + wall + roomSize.x + doorwayDepth, cx1 = cx0 + corridorWidth
                let corridorLength = wall + Double(pairs) * (roomSize.y + wall)
                spaces.append(.init(id: "f\(f)-w\(w)-corridor", name: "Floor \(f) wing \(w) corridor", kind: .corridor,
                                    min: SIMD2(cx0, hallDepth), max: SIMD2(cx1, hallDepth + corridorLength),
                                    height: corridorHeight, elevation: e, finish: "corridor"))
                for r in 0..<size.rooms {
                    // Even rooms west, odd rooms east, in pairs facing each other from the
                    // hall on: room r is at the same place whatever the number of rooms.
                    let west = r % 2 == 0
                    let k = r / 2
                    let z0 = hallDepth + wall + Double(k) * (roomSize.y + wall)
                    let rx0 = west ? cx0 - doorwayDepth - roomSize.x : cx1 + doorwayDepth
                    let id = "f\(f)-w\(w)-r\(r)"
                    spaces.append(.init(id: id, name: "Room \(f).\(w).\(r)", kind: .room,
                                        min: SIMD2(rx0, z0), max: SIMD2(rx0 + roomSize.x, z0 + roomSize.y),
                                        height: roomHeight, elevation: e, finish: "room"))
                    let dx0 = west ? cx0 - doorwayDepth : cx1
                    let dz = z0 + roomSize.y / 2
                    spaces.append(.init(id: id + "-door", name: "Door of room \(f).\(w).\(r)", kind: .doorway,
                                        min: SIMD2(dx0, dz - doorwayWidth / 2), max: SIMD2(dx0 + doorwayDepth, dz + doorwayWidth / 2),
                                        height: doorHeight, elevation: e, finish: "doorway"))
                }
            }
        }
        return SceneLayout(name: "building", spaces: spaces, fixtures: true)
    }

    /// Rooms of wing `wing` on floor `floor`, in order (pairs from the hall on, west first).
    public static func rooms(of layout: SceneLayout, floor: Int, wing: Int) -> [String] {
        let prefix = "f\(floor)-w\(wing)-r"
        return layout.spaces.filter { $0.kind == .room && $0.id.hasPrefix(prefix) }.map(\.id)
    }

    /// The floors of `layout`, lowest first, by elevation.
    public static func elevations(of layout: SceneLayout) -> [Double] {
        Array(Set(layout.spaces.map(\.elevation))).sorted()
    }
}
