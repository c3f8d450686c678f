import Geometry
import VPSModel

/// Which planes of a scene a camera can see from where it stands, for rendering only what
/// matters: a building has thousands of planes and a frame sees a few rooms of them.
///
/// Conservative: the planes of every space within `hops` openings of the camera's space
/// (a room → its doorway → the corridor → the other doorways and the hall → the rooms
/// opposite and the next hall segments …). Sight lines through more openings than that
/// are long and narrow; what they would show is the background. Of those, the planes
/// whose textured side faces away from the camera are left out too: every plane faces
/// into its own closed space, so from outside it is only ever seen from behind, hidden by
/// the walls of the camera's space or of the spaces seen through the openings. Planes
/// keep their order, so a scene whose spaces are all within `hops` of each other (the
/// gallery, the studio) renders exactly the pixels it did with every plane.
struct PlaneVisibility: Sendable {
    private let spaces: [SceneLayout.Space]
    /// Per space, the indices (ascending) of the planes seen from it.
    private let seen: [[Int]]
    /// Per space, the indices (ascending) of the planes on its floor.
    private let floor: [[Int]]
    private let all: [Int]
    /// Per plane, its unit normal and a corner: which side the camera is on.
    private let normals: [SIMD3<Double>], corners: [SIMD3<Double>]

    init(layout: SceneLayout, planes: [SceneDescription.Plane], hops: Int = 5) {
        let spaces = layout.spaces
        self.spaces = spaces
        var index: [String: Int] = [:]
        for (i, s) in spaces.enumerated() where index[s.id] == nil { index[s.id] = i }
        var neighbours = [[Int]](repeating: [], count: spaces.count)
        for o in layout.openings {
            guard let a = index[o.between.0], let b = index[o.between.1] else { continue }
            neighbours[a].append(b); neighbours[b].append(a)
        }
        let spaceOfPlane = planes.map { index[$0.sectionId] }
        normals = planes.map(\.normal)
        corners = planes.map { $0.corners[0] }
        all = Array(planes.indices)
        seen = spaces.indices.map { start in
            var depth = [Int?](repeating: nil, count: spaces.count)
            depth[start] = 0
            var queue = [start], head = 0
            while head < queue.count {
                let s = queue[head]
                head += 1
                guard depth[s]! < hops else { continue }
                for n in neighbours[s] where depth[n] == nil {
                    depth[n] = depth[s]! + 1
                    queue.append(n)
                }
            }
            // Planes of no known space are always drawn.
            return planes.indices.filter { spaceOfPlane[$0].map { depth[$0] != nil } ?? true }
        }
        floor = spaces.indices.map { s in
            planes.indices.filter { spaceOfPlane[$0].map { spaces[$0].elevation == spaces[s].elevation } ?? true }
        }
    }

    /// The space the point is in (the first one, where boxes touch), or nil outside all.
    private func space(at p: SIMD3<Double>) -> Int? {
        spaces.indices.first { spaces[$0].contains(SIMD2(p.x, p.z), y: p.y) }
    }

    /// Indices of the planes a camera at `p` may see (every plane facing it when it is in
    /// no space). A plane seen nearly edge-on stays in: the exposure's poses move a little.
    func planes(seenFrom p: SIMD3<Double>) -> [Int] {
        (space(at: p).map { seen[$0] } ?? all).filter { dot(normals[$0], p - corners[$0]) > -0.05 }
    }

    /// Indices of the planes on the floor (storey) of `p` (every plane when it is in no space).
    func planes(onFloorOf p: SIMD3<Double>) -> [Int] { space(at: p).map { floor[$0] } ?? all }
}
