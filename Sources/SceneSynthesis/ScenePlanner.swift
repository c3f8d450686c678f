import Foundation
import Geometry
import VPSModel

/// Turns a `SceneLayout` into the `SceneDescription` a synthetic session ships with: the
/// textured planes, sections, navigation graph, and AR content placed on walls the
/// generated routes look at (a graffiti piece per room, a collectible in front of a wall
/// per room, one link poster; on a street one of each on its facades), plus the decals
/// that draw that content into the textures.
public enum ScenePlanner {
    /// The scene and, per texture id, the decals to draw into it.
    public static func plan(layout: SceneLayout, seed: UInt64, ceilings: Bool = true, textureScale: Double = 1)
        -> (scene: SceneDescription, decals: [String: [ProceduralTextures.Decal]]) {
        var rng = SeededRandom(seed: seed, stream: "objects")
        let planes = layout.planes(ceilings: ceilings)
        var objects: [SceneObject] = []
        var decals: [String: [ProceduralTextures.Decal]] = [:]
        /// Hangs a picture of `size` on `wall`, `height` up at a random place in `along`: the
        /// scene object, and the decal that paints it into the wall's texture.
        func hang(_ kind: SceneObject.Kind, id: String, on wall: SceneDescription.Plane, along: ClosedRange<Double>,
                  height: Double, size: SIMD2<Double>, payload: [String: String],
                  painted decalKind: ProceduralTextures.Decal.Kind, title: String) {
            let u = rng.uniform(along)
            objects.append(wallObject(id: id, kind: kind, on: wall, u: u, height: height, size: size, payload: payload))
            decals[wall.texture, default: []].append(decal(decalKind, on: wall, u: u, height: height, size: size, title: title,
                                                           scale: textureScale))
        }
        let rooms = layout.spaces.filter { $0.kind == .room }
        for (roomIndex, room) in rooms.enumerated() {
            // Full-height wall pieces of this room, longest first.
            let walls = planes.filter { $0.sectionId == room.id && $0.kind == .wall && $0.id.contains("-wall") }
                .sorted { $0.size.x != $1.size.x ? $0.size.x > $1.size.x : $0.id < $1.id }
            guard walls.count >= 2 else { continue }
            let letter = room.name.split(separator: " ").last.map(String.init) ?? room.id
            // Graffiti on the longest wall.
            hang(.graffiti, id: "graffiti-\(room.id)", on: walls[0], along: 0.3...0.7, height: 1.6, size: SIMD2(1.1, 0.75),
                 payload: ["title": "Piece \(letter)", "artist": "synth-\(seed)"], painted: .graffiti, title: "ARC \(letter)")
            // One link poster, on the second wall of the second room (or the only room).
            var collectibleWall = walls[1]
            if roomIndex == min(1, rooms.count - 1) {
                hang(.link, id: "link-\(room.id)", on: walls[1], along: 0.35...0.65, height: 1.5, size: SIMD2(0.7, 0.9),
                     payload: ["title": "Visit the \(layout.name)", "url": "https://example.com/\(layout.name)/\(room.id)"],
                     painted: .linkPoster, title: "SCAN ME")
                collectibleWall = walls.count > 2 ? walls[2] : walls[0]
            }
            // A collectible floating 1.2 m high, 0.6 m in front of a wall.
            let c = collectibleWall
            let cu = rng.uniform(0.3...0.7)
            var pose = objectPose(on: c, u: cu, height: 1.2)
            pose.translation += c.normal * 0.6
            objects.append(SceneObject(id: "collectible-\(room.id)", kind: .collectible, sectionId: room.id, pose: pose,
                                       extent: SIMD3(0.25, 0.25, 0.25), payload: ["points": String(10 * (roomIndex + 1))]))
        }
        if let street = layout.street {
            // The street: a graffiti piece on a shop front of the south row and a link poster
            // on one of the north row, both along the routes, and a collectible in between.
            func facade(_ side: StreetLayout.Side, at x: Double) -> (plane: SceneDescription.Plane, u: Double)? {
                guard let b = street.buildings.first(where: { $0.side == side && $0.from <= x && x < $0.to }),
                      let plane = planes.first(where: { $0.id == "street/\(b.id)/facade" }) else { return nil }
                let f = (x - b.from) / (b.to - b.from)
                // Clear of the building's edges.
                return (plane, min(0.8, max(0.2, side == .north ? f : 1 - f)))
            }
            if let (wall, u) = facade(.south, at: 40) {
                hang(.graffiti, id: "graffiti-street", on: wall, along: (u - 0.05)...(u + 0.05), height: 1.7,
                     size: SIMD2(1.4, 0.9), payload: ["title": "Piece S", "artist": "synth-\(seed)"], painted: .graffiti,
                     title: "ARC S")
            }
            if let (wall, u) = facade(.north, at: 62) {
                hang(.link, id: "link-street", on: wall, along: (u - 0.05)...(u + 0.05), height: 1.6,
                     size: SIMD2(0.7, 0.9), payload: ["title": "Visit the street", "url": "https://example.com/street"],
                     painted: .linkPoster, title: "SCAN ME")
            }
            if let (wall, u) = facade(.north, at: 28) {
                var pose = objectPose(on: wall, u: u, height: 1.2)
                pose.translation += wall.normal * 0.6
                objects.append(SceneObject(id: "collectible-street", kind: .collectible, sectionId: wall.sectionId, pose: pose,
                                           extent: SIMD3(0.25, 0.25, 0.25), payload: ["points": "10"]))
            }
        }
        let all = layout.fixtures ? planes + fixtures(layout: layout, planes: planes, objects: objects, seed: seed) : planes
        let scene = SceneDescription(name: layout.name, seed: seed, sections: layout.sections, planes: all,
                                     objects: objects, navigation: layout.navigationGraph)
        return (scene, decals)
    }

    /// Names of the shared fixture textures (after `SceneLayout.sharedTexturePrefix`).
    static let posterTexture = "poster-", doorTexture = "door"
    /// Poster designs hung throughout a building with fixtures.
    static let posterDesigns = 8
    static let posterSize = SIMD2(0.6, 0.85), doorSize = SIMD2(0.95, 2.05)

    /// The same posters and doors, hung throughout: quads 1 cm in front of the full-height
    /// walls of rooms and corridors, on slots 1.6 m apart, leaving room around the AR
    /// content. Corridors get more doors (offices, stores, exits), rooms more posters.
    static func fixtures(layout: SceneLayout, planes: [SceneDescription.Plane], objects: [SceneObject],
                         seed: UInt64) -> [SceneDescription.Plane] {
        var rng = SeededRandom(seed: seed, stream: "fixtures")
        var out: [SceneDescription.Plane] = []
        for space in layout.spaces where space.kind != .doorway {
            var n = 0
            let walls = planes.filter { $0.sectionId == space.id && $0.kind == .wall && $0.id.contains("-wall") }
                .sorted { $0.id < $1.id }
            let nearby = objects.filter { $0.sectionId == space.id }.map(\.pose.translation)
            for wall in walls {
                let width = wall.size.x
                let along = normalize(wall.corners[1] - wall.corners[0]), normal = wall.normal
                var u = 0.9
                while u + 0.6 <= width {
                    defer { u += 1.6 }
                    // Keep clear of the AR content on (or in front of) this wall.
                    let blocked = nearby.contains { p in
                        abs(dot(normal, p - wall.corners[0])) < 0.8 && abs(dot(along, p - wall.corners[0]) - u) < 1.1
                    }
                    let pick = rng.unit(), design = rng.int(0...(posterDesigns - 1))
                    if blocked { continue }
                    let door = space.kind == .corridor ? pick < 0.35 : pick < 0.08
                    let poster = !door && pick < (space.kind == .corridor ? 0.7 : 0.48)
                    guard door || poster else { continue }
                    let size = door ? doorSize : posterSize
                    guard wall.size.y >= size.y + 0.4 else { continue }
                    let bottom = door ? 0 : 1.55 - size.y / 2
                    let up = SIMD3<Double>(0, 1, 0)
                    let bl = wall.corners[0] + along * (u - size.x / 2) + up * bottom + normal * 0.01
                    n += 1
                    let texture = SceneLayout.sharedTexturePrefix + (door ? doorTexture : posterTexture + "\(design)")
                    out.append(.init(id: "\(space.id)/fixture-\(n)", sectionId: space.id, kind: .wall, texture: texture,
                                     corners: [bl, bl + along * size.x, bl + along * size.x + up * size.y, bl + up * size.y]))
                }
            }
        }
        return out
    }

    /// Texture size in pixels of a plane (procedural textures), `scale` times the default density.
    public static func textureSize(_ plane: SceneDescription.Plane, scale: Double = 1) -> (width: Int, height: Int) {
        let ppm = (StreetTextures.Surface(plane.texture)?.pixelsPerMetre ?? ProceduralTextures.pixelsPerMetre(plane.kind)) * scale
        return (min(8192, max(8, Int((plane.size.x * ppm).rounded()))), min(8192, max(8, Int((plane.size.y * ppm).rounded()))))
    }

    /// `T_map_object` on a wall: x along the wall (left to right seen from the front), y up,
    /// z out of the wall; origin at fraction `u` of its width and `height` above its bottom.
    static func objectPose(on plane: SceneDescription.Plane, u: Double, height: Double) -> Pose {
        let x = normalize(plane.corners[1] - plane.corners[0])
        let y = normalize(plane.corners[3] - plane.corners[0])
        let z = plane.normal
        let r = Matrix3(rows: SIMD3(x.x, y.x, z.x), SIMD3(x.y, y.y, z.y), SIMD3(x.z, y.z, z.z))
        let origin = plane.corners[0] + (plane.corners[1] - plane.corners[0]) * u + y * height
        return Pose(rotationMatrix: r, translation: origin + z * 0.005)
    }

    static func wallObject(id: String, kind: SceneObject.Kind, on plane: SceneDescription.Plane, u: Double,
                           height: Double, size: SIMD2<Double>, payload: [String: String]) -> SceneObject {
        SceneObject(id: id, kind: kind, sectionId: plane.sectionId, pose: objectPose(on: plane, u: u, height: height),
                    extent: SIMD3(size.x, size.y, 0.01), payload: payload)
    }

    static func decal(_ kind: ProceduralTextures.Decal.Kind, on plane: SceneDescription.Plane, u: Double,
                      height: Double, size: SIMD2<Double>, title: String, scale: Double) -> ProceduralTextures.Decal {
        let (w, h) = textureSize(plane, scale: scale)
        let pxPerM = SIMD2(Double(w) / plane.size.x, Double(h) / plane.size.y)
        // Texture y runs down from the top edge.
        let centre = SIMD2(u * Double(w), (plane.size.y - height) * pxPerM.y)
        let half = size * pxPerM / 2
        return .init(kind: kind, min: centre - half, max: centre + half, title: title)
    }
}
