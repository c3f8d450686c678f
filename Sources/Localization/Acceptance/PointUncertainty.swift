import Foundation
import Geometry
import Vision
import MapModel

/// How well each map point's position is known: the first-order covariance of its
/// triangulation from the keyframes that observed it, in map units². Keypoint noise is one
/// pixel at level 0, scaled by the octave, and then by the map's own variance factor: the
/// observations' residuals about their triangulated points (χ²/dof, at least 1), so a map
/// whose keyframe poses or keypoints are worse than one pixel says so. A venue joined from
/// separate captures (`MapParts`) has a factor per capture: each was reconstructed on its
/// own, and one poor capture must not widen the bounds of poses in the others.
///
/// A point seen from nearly the same direction by every keyframe — far away, or along a
/// walking direction — is known well across its ray and poorly along it. Such points still
/// pin down rotation and the lateral position of a query near the mapping path, where the
/// error along the ray barely moves their projection; a query that sees them from the side
/// sees the error in full. Projected into the query (`PoseUncertainty`'s 2×2 residual
/// covariance per inlier), it tells the pose's bounds how far each point's projection may
/// honestly stray, and in which direction.
struct PointUncertainty: Sendable {
    /// Upper triangle of each point's covariance: xx, xy, xz, yy, yz, zz.
    private let covariance: [Double]
    /// √(χ²/dof) of the map's observations about their points, at least 1; of each part's
    /// (`MapParts`, in their order) in a venue of several, and then the last entry is the
    /// keyframes in no part.
    let residualScales: [Double]
    /// The residual scale of a map of one part.
    var residualScale: Double { residualScales[0] }

    /// - Parameter scaleFactor: the ORB pyramid's scale between levels (keypoint noise
    ///   grows by it per octave).
    ///   - parts: the map's parts (`MapParts`): each has its own variance factor. nil or no
    ///     parts: one for the whole map.
    init(map: VPSMap, scaleFactor: Double, parts: MapParts? = nil) {
        let n = map.points.count
        var info = [Double](repeating: 0, count: 6 * n)
        let frames = map.keyframes.map { CameraFromWorld($0.pose) }
        let levels = (0..<32).map { 1 / pow(scaleFactor, 2 * Double($0)) }  // 1/σ² per octave
        for o in map.observations {
            let k = Int(o.keyframe), p = Int(o.point)
            let cam = map.keyframes[k].intrinsics, pose = frames[k]
            let c = pose.apply(map.points.position(p))
            guard c.z > 1e-12 else { continue }
            // Rows of the 2×3 Jacobian of the projection with respect to the world point.
            let iz = 1 / c.z
            let a = SIMD3(cam.fx * iz, 0, -cam.fx * c.x * iz * iz)
            let b = SIMD3(0, cam.fy * iz, -cam.fy * c.y * iz * iz)
            let rt = pose.rotation.transposed
            let ja = rt * a, jb = rt * b
            let w = levels[min(Int(o.octave), levels.count - 1)]
            info[6 * p] += w * (ja.x * ja.x + jb.x * jb.x)
            info[6 * p + 1] += w * (ja.x * ja.y + jb.x * jb.y)
            info[6 * p + 2] += w * (ja.x * ja.z + jb.x * jb.z)
            info[6 * p + 3] += w * (ja.y * ja.y + jb.y * jb.y)
            info[6 * p + 4] += w * (ja.y * ja.z + jb.y * jb.z)
            info[6 * p + 5] += w * (ja.z * ja.z + jb.z * jb.z)
        }
        // Each keyframe's group: its part, or the group of keyframes in none (the last).
        let partCount = parts?.count ?? 0
        let groupOf = (0..<map.keyframes.count).map { k -> Int in
            guard let parts, partCount > 0, parts.partOfKeyframe[k] >= 0 else { return partCount }
            return Int(parts.partOfKeyframe[k])
        }
        var members = [[Int]](repeating: [], count: partCount + 1)
        for (k, g) in groupOf.enumerated() { members[g].append(k) }
        let factors = members.map { Self.varianceFactor(map: map, keyframes: $0, frames: frames, levels: levels) }
        residualScales = factors.map { $0.squareRoot() }
        // A point is of its first observer's group: parts share no point.
        var groupOfPoint = [Int32](repeating: Int32(partCount), count: n)
        var seen = [Bool](repeating: false, count: n)
        for o in map.observations where !seen[Int(o.point)] {
            seen[Int(o.point)] = true
            groupOfPoint[Int(o.point)] = Int32(groupOf[Int(o.keyframe)])
        }
        var cov = [Double](repeating: 0, count: 6 * n)
        for p in 0..<n {
            let factor = factors[Int(groupOfPoint[p])]
            let m = Matrix3(rows: SIMD3(info[6 * p], info[6 * p + 1], info[6 * p + 2]),
                            SIMD3(info[6 * p + 1], info[6 * p + 3], info[6 * p + 4]),
                            SIMD3(info[6 * p + 2], info[6 * p + 4], info[6 * p + 5]))
            // Rays that are parallel to rounding leave the depth unknown: the inverse would be
            // meaningless, so such a point gets no extra allowance along the ray (it still
            // counts with its keypoint noise, as before this model existed).
            let d = m.determinant
            let scale = max(info[6 * p], info[6 * p + 3], info[6 * p + 5])
            guard d.isFinite, scale > 0, d > 1e-12 * scale * scale * scale else { continue }
            let inv = Self.inverseSymmetric(m, determinant: d / factor)  // adj(m) / (d / factor) = factor · m⁻¹
            cov[6 * p] = inv.r0.x; cov[6 * p + 1] = inv.r0.y; cov[6 * p + 2] = inv.r0.z
            cov[6 * p + 3] = inv.r1.y; cov[6 * p + 4] = inv.r1.z; cov[6 * p + 5] = inv.r2.z
        }
        covariance = cov
    }

    /// Point `p`'s covariance.
    func covariance(of p: Int) -> Matrix3 {
        let c = covariance, b = 6 * p
        return Matrix3(rows: SIMD3(c[b], c[b + 1], c[b + 2]), SIMD3(c[b + 1], c[b + 3], c[b + 4]),
                       SIMD3(c[b + 2], c[b + 4], c[b + 5]))
    }

    /// χ²/dof of the observations of `keyframes` about their points (2 per observation, 3
    /// unknowns per point), at least 1; from up to 200 of them spread over the list, their
    /// stored pixels undistorted.
    private static func varianceFactor(map: VPSMap, keyframes: [Int], frames: [CameraFromWorld],
                                       levels: [Double]) -> Double {
        let k = keyframes.count
        guard k > 0 else { return 1 }
        let step = max(1, k / 200)
        var chi2 = 0.0, observations = 0
        var points = Set<UInt32>()
        for kf in Swift.stride(from: 0, to: k, by: step).map({ keyframes[$0] }) {
            let range = map.keyframeObservationOffsets[kf]..<map.keyframeObservationOffsets[kf + 1]
            guard !range.isEmpty else { continue }
            let cam = map.keyframes[kf].intrinsics
            let stored = range.map { SIMD2(Double(map.observations[$0].pixel.x), Double(map.observations[$0].pixel.y)) }
            guard let pixels = cam.distortion.allSatisfy({ $0 == 0 }) ? stored : try? cam.undistort(stored) else { continue }
            for (o, pixel) in zip(range.map { map.observations[$0] }, pixels) {
                guard let q = cam.project(frames[kf].apply(map.points.position(Int(o.point)))) else { continue }
                let r = q - pixel
                chi2 += (r * r).sum() * levels[min(Int(o.octave), levels.count - 1)]
                observations += 1
                points.insert(o.point)
            }
        }
        // With keyframes left out, points keep only part of their observations: count the
        // unknowns in proportion.
        let unknowns = 3 * Double(points.count) / Double(step)
        let dof = 2 * Double(observations) - unknowns
        return dof > 0 ? max(1, chi2 / dof) : 1
    }

    private static func inverseSymmetric(_ m: Matrix3, determinant d: Double) -> Matrix3 {
        let a = m.r0, b = m.r1, c = m.r2
        let r0 = SIMD3(b.y * c.z - b.z * c.y, a.z * c.y - a.y * c.z, a.y * b.z - a.z * b.y) / d
        let r1 = SIMD3(b.z * c.x - b.x * c.z, a.x * c.z - a.z * c.x, a.z * b.x - a.x * b.z) / d
        let r2 = SIMD3(b.x * c.y - b.y * c.x, a.y * c.x - a.x * c.y, a.x * b.y - a.y * b.x) / d
        return Matrix3(rows: r0, r1, r2)
    }
}
