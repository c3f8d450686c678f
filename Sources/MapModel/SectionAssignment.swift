import VPSModel
/// Which section a position belongs to.
///
/// By bounds: the smallest section box that contains the position (rooms nested in a
/// hall go to the room), else the nearest box, so points on a wall's outer skin still
/// land in a section. Sections without bounds are only ever assigned by id.
public enum SectionAssignment {
    /// Index of `p`'s section among `sections`, or nil when no section has bounds.
    public static func section(of p: SIMD3<Double>, in sections: [MapSection]) -> Int? {
        var best: Int?
        var bestKey = (Double.infinity, Double.infinity)   // (distance to box, volume)
        for (i, s) in sections.enumerated() {
            guard let lo = s.boundsMin, let hi = s.boundsMax else { continue }
            let outside = simdMax(simdMax(lo - p, p - hi), .zero)
            let d = (outside * outside).sum()
            let size = hi - lo
            let key = (d, size.x * size.y * size.z)
            if key < bestKey { bestKey = key; best = i }
        }
        return best
    }

    /// Section indices of points and keyframes after the sections change from `old` to
    /// `new`: by bounds when every new section has them, otherwise by section id.
    static func reassign(points: MapPoints, keyframes: [MapKeyframe], from old: [MapSection],
                         to new: [MapSection]) -> (points: [Int32], keyframes: [Int?]) {
        if !new.isEmpty && new.allSatisfy({ $0.boundsMin != nil && $0.boundsMax != nil }) {
            let p = (0..<points.count).map { Int32(section(of: points.position($0), in: new) ?? -1) }
            let k = keyframes.map { section(of: $0.pose.center, in: new) }
            return (p, k)
        }
        var byId: [String: Int] = [:]
        for (i, s) in new.enumerated() { byId[s.id] = i }
        let map = old.map { byId[$0.id] }
        let p = points.sections.map { s -> Int32 in
            s >= 0 && Int(s) < map.count ? Int32(map[Int(s)] ?? -1) : -1
        }
        let k = keyframes.map { kf in kf.section.flatMap { $0 < map.count ? map[$0] : nil } }
        return (p, k)
    }

    private static func simdMax(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> SIMD3<Double> {
        SIMD3(Swift.max(a.x, b.x), Swift.max(a.y, b.y), Swift.max(a.z, b.z))
    }
}
