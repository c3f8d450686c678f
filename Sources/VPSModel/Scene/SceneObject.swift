import Geometry

/// An AR object placed in a map: graffiti, a collectible or a link.
///
/// The object's local frame has its origin at the centre of its front face, x right,
/// y up and z out of the face (towards a viewer); `extent` is its full size (w, h, d)
/// in metres along those axes. JSON form is used in `scene.json`, map scene export and
/// `GET /v1/maps/{id}/scene`.
public struct SceneObject: Sendable, Hashable, Codable, Identifiable {
    public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
        case graffiti, collectible, link
    }

    public var id: String
    public var kind: Kind
    /// The map section this object belongs to.
    public var sectionId: String
    /// `T_map_object`.
    public var pose: Pose
    public var extent: SIMD3<Double>
    /// Free-form attributes, e.g. `title`, `artist`, `url` (required for links), `points`.
    public var payload: [String: String]

    public init(id: String, kind: Kind, sectionId: String, pose: Pose, extent: SIMD3<Double>,
                payload: [String: String] = [:]) {
        self.id = id; self.kind = kind; self.sectionId = sectionId
        self.pose = pose; self.extent = extent; self.payload = payload
    }
}
