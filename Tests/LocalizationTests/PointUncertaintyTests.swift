@testable import Localization
import Foundation
import Geometry
import Testing
import Vision
import MapBuilding
import MapModel

/// Each map point's triangulation covariance, and what it means in a query.
@Suite struct PointUncertaintyTests {
    let camera = CameraIntrinsics(width: 640, height: 480, fx: 500, fy: 500, cx: 320, cy: 240)

    /// Point 0 at (0, 0, 10) seen by keyframes at x = 0 and x = `baseline`, all looking +z.
    func map(baseline: Double) throws -> VPSMap {
        let centres = [0.0, baseline]
        let keyframes = centres.enumerated().map { k, x in
            MapKeyframe(name: "k\(k)", timestamp: Double(k), pose: Pose(rotation: .identity, translation: SIMD3(x, 0, 0)),
                        intrinsics: camera)
        }
        let n = 4
        let observations = (0..<n).flatMap { p in
            // Where each keyframe sees the point (p, 0, 10): the map's residuals are zero.
            (0..<2).map { k in
                let u: Double = 320 + 500 * (Double(p) - centres[k]) / 10
                return MapObservation(point: UInt32(p), keyframe: UInt32(k), pixel: SIMD2(Float(u), 240), octave: 0)
            }
        }
        let descriptors = (0..<32 * n).map { UInt8(truncatingIfNeeded: $0 &* 37) }
        let vocabulary = try Vocabulary.train(descriptors: descriptors, parameters: .init(branching: 2, levels: 1))
        let positions = (0..<n).flatMap { p -> [Double] in [Double(p), 0, 10] }
        let points = MapPoints(positions: positions, descriptors: descriptors,
                               observationCounts: [UInt32](repeating: 2, count: n),
                               words: descriptors.withUnsafeBytes { vocabulary.quantize($0, nodeDepth: nil).words },
                               sections: [Int32](repeating: -1, count: n))
        return try VPSMap(metadata: MapMetadata(name: "pair", created: Date(timeIntervalSince1970: 0)),
                          keyframes: keyframes, points: points, observations: observations, vocabulary: vocabulary)
    }

    /// `map` with every observation 3 px off its point's projection (up in one keyframe,
    /// down in the other).
    func scattered(_ map: VPSMap) throws -> VPSMap {
        try VPSMap(metadata: map.metadata, keyframes: map.keyframes, points: map.points,
                   observations: map.observations.map { o in
                       var o = o
                       o.pixel.y += o.keyframe == 0 ? 3 : -3
                       return o
                   }, vocabulary: map.vocabulary)
    }

    @Test func aNarrowBaselineLeavesTheDepthUnknownNotTheDirection() throws {
        let wide = PointUncertainty(map: try map(baseline: 5), scaleFactor: 1.2)
        let narrow = PointUncertainty(map: try map(baseline: 0.2), scaleFactor: 1.2)
        // Along the ray (z) the narrow pair knows the point far worse; across it, about as well.
        #expect(narrow.covariance(of: 0).r2.z > 100 * wide.covariance(of: 0).r2.z)
        #expect(narrow.covariance(of: 0).r1.y < 2 * wide.covariance(of: 0).r1.y)
        // Depth σ for two views 0.2 apart at 10: about 10² / (500 · 0.2) / √2·… ≈ 1.
        let depthSigma = narrow.covariance(of: 0).r2.z.squareRoot()
        #expect(depthSigma > 0.5 && depthSigma < 2)
    }

    @Test func aMapWhoseObservationsScatterWidensEveryPoint() throws {
        // The same pair with every observation 3 px off its point's projection: the map's
        // variance factor scales each covariance by it (here all residual, no dof to spare
        // but one per point).
        let exact = try map(baseline: 5)
        let shifted = try scattered(exact)
        let a = PointUncertainty(map: exact, scaleFactor: 1.2), b = PointUncertainty(map: shifted, scaleFactor: 1.2)
        #expect(a.residualScale == 1)
        #expect(b.residualScale > 3, "\(b.residualScale)")
        #expect(abs(b.covariance(of: 0).r2.z / a.covariance(of: 0).r2.z - b.residualScale * b.residualScale) < 1e-6)
    }

    /// A venue of a good capture and a poor one (every observation 3 px off): each part has
    /// its own variance factor, so the poor one does not widen the good one's points.
    @Test func eachCaptureOfAVenueHasItsOwnVarianceFactor() throws {
        let exact = try map(baseline: 5)
        let poor = try scattered(exact)
        let venue = try MapMerger().merge([.init(map: exact, placement: .identity, name: "good"),
                                           .init(map: poor, placement: Pose(rotation: .identity, translation: SIMD3(100, 0, 0)),
                                                 name: "poor")], name: "venue")
        let parts = MapParts(map: venue, minKeyframes: 2)
        #expect(parts.count == 2)
        let alone = PointUncertainty(map: exact, scaleFactor: 1.2), poorAlone = PointUncertainty(map: poor, scaleFactor: 1.2)
        let split = PointUncertainty(map: venue, scaleFactor: 1.2, parts: parts)
        let pooled = PointUncertainty(map: venue, scaleFactor: 1.2)
        #expect(split.residualScales[0] == 1 && split.residualScales[1] == poorAlone.residualScale)
        let n = exact.points.count
        #expect(abs(split.covariance(of: 0).r2.z / alone.covariance(of: 0).r2.z - 1) < 1e-9)
        #expect(abs(split.covariance(of: n).r2.z / poorAlone.covariance(of: 0).r2.z - 1) < 1e-9)
        // One factor for the whole venue would have widened the good capture's points.
        #expect(pooled.covariance(of: 0).r2.z > 2 * alone.covariance(of: 0).r2.z)
    }

    /// The standard deviation (pixels, per image axis) of point `p`'s projection into a camera
    /// at `pose` caused by the point's own covariance: √(trace(J Σ Jᵀ)/2), the part of each
    /// inlier's 2×2 residual covariance that `PoseUncertainty` adds to its keypoint noise.
    func pixelDeviation(_ u: PointUncertainty, of p: Int, at x: SIMD3<Double>, pose: CameraFromWorld) -> Double {
        let c = pose.apply(x)
        let iz = 1 / c.z
        let rt = pose.rotation.transposed
        let ja = rt * SIMD3(camera.fx * iz, 0, -camera.fx * c.x * iz * iz)
        let jb = rt * SIMD3(0, camera.fy * iz, -camera.fy * c.y * iz * iz)
        let s = u.covariance(of: p)
        return (max(0, dot(ja, s * ja) + dot(jb, s * jb)) / 2).squareRoot()
    }

    @Test func aQueryOnTheMappingPathSeesLittleOfTheDepthErrorOneFromTheSideSeesIt() throws {
        let narrow = PointUncertainty(map: try map(baseline: 0.2), scaleFactor: 1.2)
        let x = SIMD3(0.0, 0, 10)
        let onPath = CameraFromWorld(Pose(rotation: .identity, translation: SIMD3(0.1, 0, 0)))
        let aside = CameraFromWorld(Pose(rotation: Quaternion(axis: SIMD3(0, 1, 0), angle: -.pi / 4),
                                         translation: SIMD3(7, 0, 3)))
        let near = pixelDeviation(narrow, of: 0, at: x, pose: onPath)
        let far = pixelDeviation(narrow, of: 0, at: x, pose: aside)
        #expect(near < 2)
        #expect(far > 10 * near, "on the path \(near) px, from the side \(far) px")
    }
}
