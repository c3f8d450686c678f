import Geometry
import VPSModel
import Vision

/// A ray in the map frame, cast from a camera through one pixel: how a tap picks the AR
/// object under the finger.
public struct SceneRay: Sendable, Hashable {
    /// The camera centre, in the map frame.
    public var origin: SIMD3<Double>
    /// Unit direction, in the map frame.
    public var direction: SIMD3<Double>

    /// A ray from `origin` along `direction` (normalized here).
    public init(origin: SIMD3<Double>, direction: SIMD3<Double>) {
        self.origin = origin; self.direction = normalize(direction)
    }

    /// The ray from the camera at `cameraPose` (`T_map_camera`) through `pixel` of its image
    /// (as stored: distortion is removed first when the intrinsics have any).
    public init(cameraPose: Pose, intrinsics: CameraIntrinsics, pixel: SIMD2<Double>) {
        var ideal = pixel
        if !intrinsics.distortion.isEmpty, let undistorted = try? intrinsics.undistort([pixel]).first {
            ideal = undistorted
        }
        self.init(origin: cameraPose.translation, direction: cameraPose.rotation.rotate(intrinsics.ray(ideal)))
    }

    /// Distance along the ray to where it enters `object`'s box, or nil when it misses or
    /// the box is behind the camera. A camera inside the box hits it at distance 0.
    ///
    /// The box, in the object's frame (`SceneObject` documents it: origin at the centre of
    /// the front face, z out of the face): x in ±w/2, y in ±h/2, z from −d to 0. A flat
    /// object (d = 0) is its front face.
    public func distance(to object: SceneObject) -> Double? {
        let toObject = object.pose.inverse
        let o = toObject.apply(origin)
        let d = toObject.rotation.rotate(direction)
        let half = object.extent / 2
        let low = SIMD3(-half.x, -half.y, -object.extent.z), high = SIMD3(half.x, half.y, 0)
        var enter = -Double.infinity, exit = Double.infinity
        for axis in 0..<3 {
            if abs(d[axis]) < 1e-12 {
                // Parallel to this pair of faces: inside the slab or never.
                if o[axis] < low[axis] || o[axis] > high[axis] { return nil }
                continue
            }
            let a = (low[axis] - o[axis]) / d[axis], b = (high[axis] - o[axis]) / d[axis]
            enter = max(enter, min(a, b))
            exit = min(exit, max(a, b))
        }
        guard enter <= exit, exit >= 0 else { return nil }
        return max(enter, 0)
    }

    /// The object the ray meets first, where, and how far along the ray; nil when it
    /// meets none. Ties go to the earlier object.
    public func nearestHit(in objects: [SceneObject]) -> (object: SceneObject, point: SIMD3<Double>, distance: Double)? {
        var best: (object: SceneObject, point: SIMD3<Double>, distance: Double)?
        for object in objects {
            guard let t = distance(to: object), t < (best?.distance ?? .infinity) else { continue }
            best = (object, origin + direction * t, t)
        }
        return best
    }
}
