import Foundation
import Geometry

/// One descriptor per distinct viewing direction of a point: its observations are grouped
/// greedily by the direction from the point to the camera (a group takes every
/// observation within `clusterDegrees` of its first), each group gives the medoid of its
/// descriptors, and a descriptor nearly equal to one already kept is skipped. At most
/// `maxPerPoint`, from the largest groups.
struct ViewDescriptorSelection: Sendable {
    var clusterDegrees: Double
    var maxPerPoint: Int
    /// Descriptors within this Hamming distance of a kept one add nothing.
    var duplicateDistance = 12

    func descriptors(position x: SIMD3<Double>, cameraCentres: [SIMD3<Double>],
                     descriptors: [ArraySlice<UInt8>]) -> [[UInt8]] {
        let cosMax = cos(clusterDegrees * .pi / 180)
        var seeds: [SIMD3<Double>] = []
        var groups: [[Int]] = []
        for (i, c) in cameraCentres.enumerated() {
            let d = normalize(c - x)
            if let g = seeds.firstIndex(where: { dot($0, d) >= cosMax }) { groups[g].append(i) } else {
                seeds.append(d)
                groups.append([i])
            }
        }
        var kept: [[UInt8]] = []
        for g in groups.indices.sorted(by: { (groups[$0].count, -$0) > (groups[$1].count, -$1) }) {
            let m = MapBuilder.medoid(groups[g].map { descriptors[$0] })
            if kept.contains(where: { MapBuilder.hamming($0[...], m[...]) <= duplicateDistance }) { continue }
            kept.append(m)
            if kept.count == maxPerPoint { break }
        }
        return kept
    }
}
