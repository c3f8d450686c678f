import Geometry
import MapModel

/// For every map point, the unit mean direction it was observed along (from the observing
/// keyframes' centres towards the point).
///
/// ORB descriptors do not survive much more than ~60° of viewpoint change, so a pose that
/// claims to see a point from far outside that cone is implausible: checking it removes
/// the "mirror" poses RANSAC can otherwise assemble from wrong matches (a camera behind a
/// wall or below the floor), and keeps the guided search to points that can match.
struct ViewingDirections: Sendable {
    /// x,y,z per point (Float: it feeds the projection search directly).
    let xyz: [Float]

    init(map: VPSMap) {
        var sum = [Double](repeating: 0, count: 3 * map.points.count)
        let centres = map.keyframes.map(\.pose.center)
        for o in map.observations {
            let p = Int(o.point)
            let d = map.points.position(p) - centres[Int(o.keyframe)]
            let n = length(d)
            guard n > 0 else { continue }
            sum[3 * p] += d.x / n; sum[3 * p + 1] += d.y / n; sum[3 * p + 2] += d.z / n
        }
        var xyz = [Float](repeating: 0, count: sum.count)
        for p in 0..<map.points.count {
            let v = SIMD3(sum[3 * p], sum[3 * p + 1], sum[3 * p + 2])
            let n = length(v)
            // A point without observations gets a zero vector: it passes no angle check.
            if n > 0 { xyz[3 * p] = Float(v.x / n); xyz[3 * p + 1] = Float(v.y / n); xyz[3 * p + 2] = Float(v.z / n) }
        }
        self.xyz = xyz
    }

    /// Whether a camera at `centre` sees point `i` (at `position`) within `minCos` of its
    /// mapped viewing direction.
    func isPlausible(point i: Int, at position: SIMD3<Double>, from centre: SIMD3<Double>, minCos: Double) -> Bool {
        let d = position - centre
        let n = length(d)
        guard n > 0 else { return false }
        let c = (d.x * Double(xyz[3 * i]) + d.y * Double(xyz[3 * i + 1]) + d.z * Double(xyz[3 * i + 2])) / n
        return c >= minCos
    }
}
