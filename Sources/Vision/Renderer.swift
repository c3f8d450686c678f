import Geometry
import VisionCore

/// A textured quad for `Renderer`: corners in the map frame as seen from the front
/// (bottom-left, bottom-right, top-right, top-left); texture pixel (0, 0) at the top-left.
public struct RenderPlane: Sendable {
    public var corners: [SIMD3<Double>]
    public var texture: RenderTexture
    /// Lighting factor multiplying the texture colour.
    public var shade: Double

    public init(corners: [SIMD3<Double>], texture: RenderTexture, shade: Double = 1) {
        precondition(corners.count == 4, "a plane has 4 corners")
        self.corners = corners; self.texture = texture; self.shade = shade
    }
}

/// Image effects applied after the planes are drawn.
public struct RenderEffects: Sendable, Hashable {
    /// Exposure multiplier (1 = unchanged).
    public var gain: Double
    /// Darkening at the image corners, 0…1.
    public var vignetting: Double
    /// Signal-independent Gaussian noise sigma, in 8-bit levels.
    public var readNoise: Double
    /// Signal-dependent noise: sigma = shotNoise × √level.
    public var shotNoise: Double
    /// Seed of the noise.
    public var seed: UInt64
    /// Colour where no plane is seen.
    public var background: RGBColor

    public init(gain: Double = 1, vignetting: Double = 0, readNoise: Double = 0, shotNoise: Double = 0,
                seed: UInt64 = 0, background: RGBColor = RGBColor(128, 128, 128)) {
        self.gain = gain; self.vignetting = vignetting; self.readNoise = readNoise
        self.shotNoise = shotNoise; self.seed = seed; self.background = background
    }

    public static let none = RenderEffects()
}

/// Renders textured planes seen by a pinhole camera (VisionCore's software renderer):
/// per-plane perspective warps, exact per-pixel depth ordering, trilinear mip-mapped
/// texture sampling, motion blur from poses sampled over the exposure, then effects.
/// Deterministic: the same inputs give the same pixels on any machine and thread count.
public enum Renderer {
    /// Renders `planes` seen from `poses` (each `T_map_camera`, at most 64, in time order
    /// over the exposure) with `camera`'s pinhole model (distortion is ignored). The image
    /// is sharp at the middle pose `poses[poses.count / 2]`; the others blur it along the
    /// per-pixel image motion. With `planeIds`, also returns the index of the plane seen at
    /// each pixel from the middle pose (-1 for none), row-major.
    public static func render(camera: CameraIntrinsics, poses: [Pose], planes: [RenderPlane],
                              effects: RenderEffects = .none, nearClip: Double = 0.05,
                              planeIds: Bool = false) throws -> (image: RenderedImage, planeIds: [Int32]?) {
        guard !poses.isEmpty, poses.count <= 64 else { throw RenderError(status: 1, operation: "render") }
        var cam = vc_render_camera(width: Int32(clamping: camera.width), height: Int32(clamping: camera.height),
                                   fx: camera.fx, fy: camera.fy, cx: camera.cx, cy: camera.cy, near_clip: nearClip)
        let cPoses = poses.map { pose -> vc_render_pose in
            let cw = pose.inverse
            let r = cw.rotation.matrix.rowMajor
            return vc_render_pose(R_cw: (r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[7], r[8]),
                                  t_cw: (cw.translation.x, cw.translation.y, cw.translation.z))
        }
        let cPlanes = planes.map { p -> vc_render_plane in
            let c = p.corners
            return vc_render_plane(corners: (c[0].x, c[0].y, c[0].z, c[1].x, c[1].y, c[1].z,
                                             c[2].x, c[2].y, c[2].z, c[3].x, c[3].y, c[3].z),
                                   texture: p.texture.handle, shade: p.shade)
        }
        var fx = vc_render_effects(gain: effects.gain, vignetting: effects.vignetting,
                                   read_noise: effects.readNoise, shot_noise: effects.shotNoise, seed: effects.seed,
                                   background: (effects.background.x, effects.background.y, effects.background.z))
        let stride = camera.width * 3
        var ids: [Int32]? = planeIds ? [Int32](repeating: -1, count: camera.width * camera.height) : nil
        var status = VC_OK
        let pixels = [UInt8](unsafeUninitializedCapacity: stride * camera.height) { buf, count in
            status = cPoses.withUnsafeBufferPointer { pp in
                cPlanes.withUnsafeBufferPointer { pl in
                    if ids != nil {
                        return ids!.withUnsafeMutableBufferPointer { idp in
                            vc_render(&cam, pp.baseAddress, Int32(pp.count), pl.baseAddress, Int32(pl.count), &fx,
                                      buf.baseAddress, Int32(stride), idp.baseAddress)
                        }
                    }
                    return vc_render(&cam, pp.baseAddress, Int32(pp.count), pl.baseAddress, Int32(pl.count), &fx,
                                     buf.baseAddress, Int32(stride), nil)
                }
            }
            count = status == VC_OK ? stride * camera.height : 0
        }
        // Keep the textures alive until the C call has returned.
        withExtendedLifetime(planes) {}
        guard status == VC_OK else { throw RenderError(status: Int(status.rawValue), operation: "render") }
        return (RenderedImage(width: camera.width, height: camera.height, pixels: pixels), ids)
    }
}
