import Foundation
import Geometry

/// Turns a `SceneLayout` into the `SceneDescription` a synthetic session ships with: the
/// textured planes, sections, navigation graph, and AR content placed on walls the
/// generated routes look at (a graffiti piece per room, a collectible in front of a wall
/// per room, one link poster), plus the decals that draw that content into the textures.
public enum ScenePlanner {
    /// The scene and, per texture id, the decals to draw into it.
    public static func plan(layout: SceneLayout, seed: UInt64, ceilings: Bool = true, textureScale: Double = 1)
        -> (scene: SceneDescription, decals: [String: [ProceduralTextures.Decal]]) {
        var rng = SeededRandom(seed: seed, stream: "objects")
        let planes = layout.planes(ceilings: ceilings)
        var objects: [SceneObject] = []
        var decals: [String: [ProceduralTextures.Decal]] = [:]
        let rooms = layout.spaces.filter { $0.kind == .room }
        for (roomIndex, room) in rooms.enumerated() {
            // Full-height wall pieces of this room, longest first.
            let walls = planes.filter { $0.sectionId == room.id && $0.kind == .wall && $0.id.contains("-wall") }
                .sorted { $0.size.x != $1.size.x ? $0.size.x > $1.size.x : $0.id < $1.id }
            guard walls.count >= 2 else { continue }
            let letter = room.name.split(separator: " ").last.map(String.init) ?? room.id
            // Graffiti on the longest wall.
            let g = walls[0]
            let gSize = SIMD2(1.1, 0.75)
            let gu = rng.uniform(0.3...0.7)
            objects.append(wallObject(id: "graffiti-\(room.id)", kind: .graffiti, on: g, u: gu, height: 1.6, size: gSize,
                                      payload: ["title": "Piece \(letter)", "artist": "synth-\(seed)"]))
            decals[g.texture, default: []].append(decal(.graffiti, on: g, u: gu, height: 1.6, size: gSize, title: "ARC \(letter)", scale: textureScale))
            // One link poster, on the second wall of the second room (or the only room).
            var collectibleWall = walls[1]
            if roomIndex == min(1, rooms.count - 1) {
                let l = walls[1]
                let lSize = SIMD2(0.7, 0.9)
                let lu = rng.uniform(0.35...0.65)
                objects.append(wallObject(id: "link-\(room.id)", kind: .link, on: l, u: lu, height: 1.5, size: lSize,
                                          payload: ["title": "Visit the \(layout.name)", "url": "https://example.com/\(layout.name)/\(room.id)"]))
                decals[l.texture, default: []].append(decal(.linkPoster, on: l, u: lu, height: 1.5, size: lSize, title: "SCAN ME", scale: textureScale))
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
        let scene = SceneDescription(name: layout.name, seed: seed, sections: layout.sections, planes: planes,
                                     objects: objects, navigation: layout.navigationGraph)
        return (scene, decals)
    }

    /// Texture size in pixels of a plane (procedural textures), `scale` times the default density.
    public static func textureSize(_ plane: SceneDescription.Plane, scale: Double = 1) -> (width: Int, height: Int) {
        let ppm = ProceduralTextures.pixelsPerMetre(plane.kind) * scale
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
