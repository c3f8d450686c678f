import Geometry
import MapModel
import VPSModel
import Support

/// Sections for a map built without a scene description: k-means of the points on the
/// ground plane (perpendicular to the map's up), with k from the footprint (about one
/// section per `areaPerSection` square metres, at most `maxSections`). Deterministic.
/// A map in unknown units or with an unknown up has no floor plan to divide: it gets one
/// section.
enum SpatialSections {
    static func cluster(positions: [Double], units: MapUnits = .metres, up: MapUpDirection = .plusY,
                        areaPerSection: Double = 100, maxSections: Int = 8)
        -> (sections: [MapSection], labels: [Int32]) {
        let n = positions.count / 3
        guard n > 0 else { return ([], []) }
        let plane = groundPlane(up)
        let xz = (0..<n).map { i in
            let p = SIMD3(positions[3 * i], positions[3 * i + 1], positions[3 * i + 2])
            return SIMD2((p * plane.u).sum(), (p * plane.v).sum())
        }
        func spread(_ values: [Double]) -> Double {
            let s = values.sorted()
            return Statistics.lowerPercentile(sorted: s, 95)! - Statistics.lowerPercentile(sorted: s, 5)!
        }
        let area = spread(xz.map(\.x)) * spread(xz.map(\.y))
        let k = units == .metres && up.vector != nil ? min(max(Int((area / areaPerSection).rounded()), 1), maxSections, n) : 1

        // Farthest-point initialisation from the point nearest the mean.
        let mean = xz.reduce(SIMD2<Double>.zero, +) / Double(n)
        func d2(_ a: SIMD2<Double>, _ b: SIMD2<Double>) -> Double { let d = a - b; return (d * d).sum() }
        var centres = [xz.min { d2($0, mean) < d2($1, mean) }!]
        var nearest = xz.map { d2($0, centres[0]) }
        while centres.count < k {
            let far = nearest.indices.max { nearest[$0] < nearest[$1] }!
            centres.append(xz[far])
            for i in 0..<n { nearest[i] = min(nearest[i], d2(xz[i], xz[far])) }
        }
        var labels = [Int32](repeating: 0, count: n)
        for _ in 0..<20 {
            var changed = false
            for i in 0..<n {
                var best = 0
                for c in 1..<k where d2(xz[i], centres[c]) < d2(xz[i], centres[best]) { best = c }
                if labels[i] != Int32(best) { labels[i] = Int32(best); changed = true }
            }
            var sums = [SIMD2<Double>](repeating: .zero, count: k), counts = [Int](repeating: 0, count: k)
            for i in 0..<n { sums[Int(labels[i])] += xz[i]; counts[Int(labels[i])] += 1 }
            for c in 0..<k where counts[c] > 0 { centres[c] = sums[c] / Double(counts[c]) }
            if !changed { break }
        }
        // Order sections along x then z so names are stable and readable; drop empty ones.
        let used = (0..<k).filter { c in labels.contains(Int32(c)) }
            .sorted { (centres[$0].x, centres[$0].y) < (centres[$1].x, centres[$1].y) }
        var renumber = [Int32](repeating: -1, count: k)
        for (new, old) in used.enumerated() { renumber[old] = Int32(new) }
        labels = labels.map { renumber[Int($0)] }
        var lo = [SIMD3<Double>](repeating: SIMD3(repeating: .infinity), count: used.count)
        var hi = [SIMD3<Double>](repeating: SIMD3(repeating: -.infinity), count: used.count)
        for i in 0..<n {
            let p = SIMD3(positions[3 * i], positions[3 * i + 1], positions[3 * i + 2])
            let l = Int(labels[i])
            lo[l] = SIMD3(min(lo[l].x, p.x), min(lo[l].y, p.y), min(lo[l].z, p.z))
            hi[l] = SIMD3(max(hi[l].x, p.x), max(hi[l].y, p.y), max(hi[l].z, p.z))
        }
        let sections = used.indices.map {
            MapSection(id: "section-\($0 + 1)", name: "Section \($0 + 1)", boundsMin: lo[$0], boundsMax: hi[$0])
        }
        return (sections, labels)
    }

    /// Two unit vectors spanning the plane perpendicular to `up`: x and z for +y up (so
    /// sections of arcloud's own maps are as before); any basis when up is unknown.
    static func groundPlane(_ up: MapUpDirection) -> (u: SIMD3<Double>, v: SIMD3<Double>) {
        guard let n = up.vector, abs(abs(n.y) - 1) > 1e-12 else { return (SIMD3(1, 0, 0), SIMD3(0, 0, 1)) }
        let helper = abs(n.x) < 0.9 ? SIMD3<Double>(1, 0, 0) : SIMD3<Double>(0, 0, 1)
        let u = normalize(helper - n * dot(helper, n))
        return (u, cross(n, u))
    }
}
