public import Geometry
import Foundation
import VisionCore

/// Guided 2D–3D candidate search: projects world points with a pose prior and lists, for
/// every keypoint, the points that land within `radius` pixels (nearest first).
///
/// The world points and keypoints are read in place (no copy across the C boundary); the
/// result owns its arrays.
public struct ProjectionSearch: Sendable, Hashable {
    public var radius: Double
    public var minDepth: Double
    public var maxDepth: Double
    public var maxCandidatesPerKeypoint: Int
    /// With viewing directions: skip points seen more than this far (degrees) from the
    /// mean direction they were mapped from.
    public var maxViewingAngle: Double

    public init(radius: Double = 12, minDepth: Double = 0.05, maxDepth: Double = 100,
                maxCandidatesPerKeypoint: Int = 8, maxViewingAngle: Double = 60) {
        self.radius = radius; self.minDepth = minDepth; self.maxDepth = maxDepth
        self.maxCandidatesPerKeypoint = maxCandidatesPerKeypoint
        self.maxViewingAngle = maxViewingAngle
    }

    /// Candidate lists, one per keypoint. `worldPoints` holds x,y,z triples;
    /// `keypoints` are undistorted pixel positions; `viewingDirections`, when not empty,
    /// holds a unit x,y,z direction per point (from the cameras that mapped it towards it).
    /// `subset`, when given, lists the only points to project (a local map); candidates
    /// index `worldPoints` either way.
    public func candidates(prior: CameraFromWorld, camera: CameraIntrinsics, worldPoints: [Double],
                           viewingDirections: [Float] = [], subset: [Int32]? = nil,
                           keypoints: [Keypoint]) throws(VisionError) -> CandidateLists {
        guard viewingDirections.isEmpty || viewingDirections.count == worldPoints.count else {
            throw VisionError(.invalidArgument,
                              "\(viewingDirections.count / 3) viewing directions for \(worldPoints.count / 3) points")
        }
        if let subset, subset.isEmpty {
            return CandidateLists(offsets: [Int32](repeating: 0, count: keypoints.count + 1), indices: [])!
        }
        var cam = vc_pinhole(fx: camera.fx, fy: camera.fy, cx: camera.cx, cy: camera.cy)
        let r = prior.rotation.rowMajor
        let t = [prior.translation.x, prior.translation.y, prior.translation.z]
        var opts = vc_projection_search_options(radius_px: radius, min_depth: minDepth, max_depth: maxDepth,
                                                max_per_keypoint: Int32(clamping: maxCandidatesPerKeypoint),
                                                min_view_cos: cos(maxViewingAngle * .pi / 180))
        var xy = [Float](repeating: 0, count: 2 * keypoints.count)
        for (i, k) in keypoints.enumerated() { xy[2 * i] = k.x; xy[2 * i + 1] = k.y }
        let capacity = keypoints.count * max(maxCandidatesPerKeypoint, 0)
        var offsets = [Int32](repeating: 0, count: keypoints.count + 1)
        var indices = [Int32](repeating: 0, count: capacity)
        var written: Int32 = 0
        let status = worldPoints.withUnsafeBufferPointer { p in
          (subset ?? []).withUnsafeBufferPointer { sub in
            viewingDirections.withUnsafeBufferPointer { n in
              xy.withUnsafeBufferPointer { k in
                offsets.withUnsafeMutableBufferPointer { o in
                  indices.withUnsafeMutableBufferPointer { c in
                    vc_projection_search(&cam, r, t, p.baseAddress, n.isEmpty ? nil : n.baseAddress,
                                         Int32(worldPoints.count / 3), subset == nil ? nil : sub.baseAddress,
                                         Int32(clamping: sub.count),
                                         k.baseAddress, Int32(keypoints.count),
                                         Int32(camera.width), Int32(camera.height), &opts,
                                         o.baseAddress, c.baseAddress, Int32(capacity), &written)
                  }
                }
              }
            }
          }
        }
        try VisionError.check(status)
        indices.removeLast(capacity - Int(written))
        guard let lists = CandidateLists(offsets: offsets, indices: indices) else {
            throw VisionError(.internalError, "projection search wrote inconsistent candidate lists")
        }
        return lists
    }
}
