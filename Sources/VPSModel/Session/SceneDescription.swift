import Foundation
import Geometry

/// The scene a synthetic session was rendered from: `scene.json` beside `session.json`.
///
/// It carries the geometry the generator drew (textured planes in the map frame), the
/// map's sections (one per room or corridor), suggested AR content placed where the
/// generated trajectories see it, and a navigation graph through rooms and doorways.
/// The map builder and the simulator read `content` from it.
///
/// JSON (keys sorted when written):
/// ```json
/// {"version": 1, "name": "gallery", "seed": 7,
///  "sections": [{"id": "room-a", "name": "Room A", "boundsMin": [..], "boundsMax": [..]}],
///  "planes": [{"id": "room-a/wall-n", "sectionId": "room-a", "kind": "wall", "texture": "tex-0003",
///              "corners": [[x,y,z], [x,y,z], [x,y,z], [x,y,z]]}],
///  "objects": [...SceneObject...], "navigation": {"nodes": [...], "edges": [...]}}
/// ```
public struct SceneDescription: Sendable, Hashable, Codable {
    /// Format version this build writes and reads.
    public static let currentVersion = 1
    /// File name beside `session.json`.
    public static let fileName = "scene.json"

    public var version: Int
    /// Scene name, e.g. `gallery`; sessions of the same scene share it.
    public var name: String
    /// Seed of the procedural layout and textures.
    public var seed: UInt64
    public var sections: [MapSection]
    public var planes: [Plane]
    /// Suggested AR content: graffiti on walls, collectibles, link posters.
    public var objects: [SceneObject]
    public var navigation: NavigationGraph

    public init(version: Int = SceneDescription.currentVersion, name: String, seed: UInt64,
                sections: [MapSection], planes: [Plane], objects: [SceneObject],
                navigation: NavigationGraph) {
        self.version = version; self.name = name; self.seed = seed
        self.sections = sections; self.planes = planes
        self.objects = objects; self.navigation = navigation
    }

    /// Sections, AR objects and navigation graph: what a map carries besides geometry.
    public var content: SceneContent {
        SceneContent(sections: sections, objects: objects, navigation: navigation)
    }

    /// One textured rectangle of the scene.
    public struct Plane: Sendable, Hashable, Codable, Identifiable {
        public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
            case wall, floor, ceiling
        }

        public var id: String
        public var sectionId: String
        public var kind: Kind
        /// Texture id (procedural texture name or a file of the user's texture folder).
        public var texture: String
        /// Corners in the map frame, as seen from the textured (front) side: bottom-left,
        /// bottom-right, top-right, top-left. Texture pixel (0, 0) is at the top-left corner,
        /// (w, h) at the bottom-right.
        public var corners: [SIMD3<Double>]

        public init(id: String, sectionId: String, kind: Kind, texture: String, corners: [SIMD3<Double>]) {
            precondition(corners.count == 4, "a plane has 4 corners")
            self.id = id; self.sectionId = sectionId; self.kind = kind
            self.texture = texture; self.corners = corners
        }

        /// Unit normal pointing out of the textured side.
        public var normal: SIMD3<Double> {
            normalize(cross(corners[1] - corners[0], corners[3] - corners[0]))
        }

        /// Width (bottom edge) and height (left edge) in metres.
        public var size: SIMD2<Double> {
            SIMD2(length(corners[1] - corners[0]), length(corners[3] - corners[0]))
        }

        /// The map point at texture coordinates `(u, v)` in 0…1 (u right, v down from top-left).
        public func point(u: Double, v: Double) -> SIMD3<Double> {
            let top = corners[3] + (corners[2] - corners[3]) * u
            let bottom = corners[0] + (corners[1] - corners[0]) * u
            return top + (bottom - top) * v
        }
    }
}

extension SceneDescription {
    /// Reads `scene.json` from a session folder (or from the file itself).
    /// Throws `DatasetError` naming the bad field on malformed JSON or an unknown version.
    public static func load(from url: URL) throws -> SceneDescription {
        let file = url.hasDirectoryPath || url.pathExtension != "json"
            ? url.appendingPathComponent(fileName) : url
        return try DatasetJSON.decode(SceneDescription.self, from: file, supportedVersion: currentVersion)
    }

    /// Writes `scene.json` (sorted keys, stable bytes) into `directory`.
    public func write(toDirectory directory: URL) throws {
        try DatasetJSON.write(self, to: directory.appendingPathComponent(Self.fileName))
    }
}
