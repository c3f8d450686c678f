import Geometry
import BaselineCore
import Support
import Vision
import VisionCore

/// The straightforward OpenCV pipeline of `../shared/real/README.md`, as a yardstick for
/// the real-photo benchmark: its own map triangulated from posed photos with `cv::SIFT`
/// or `cv::ORB` features (every observation's descriptor kept), queries matched against
/// every map descriptor, `cv::solvePnPRansac` + `cv::solvePnPRefineLM`. Not arcloud's
/// localizer (ORB through `ORBExtractor` is the product's feature); see `vc_reference_peer.h`.
///
/// Sendable: the C++ object sits behind a `Locked` (Locking module).
public final class ReferencePeerLocalizer: Sendable {
    public enum Feature: String, Sendable, Hashable, CaseIterable {
        case sift, orb
    }

    /// A photo with its intrinsics (and, for map photos, `T_map_camera`).
    public struct PosedImage: Sendable {
        public var image: GrayImage
        public var intrinsics: CameraIntrinsics
        public var pose: Pose
        public init(image: GrayImage, intrinsics: CameraIntrinsics, pose: Pose = .identity) {
            self.image = image; self.intrinsics = intrinsics; self.pose = pose
        }
    }

    private struct Handle: ~Copyable { let pointer: OpaquePointer }
    private let handle: Locked<Handle>
    /// Points the peer triangulated.
    public let pointCount: Int
    public let feature: Feature

    /// Builds the peer's map from posed map photos (each paired with its `neighbours`
    /// nearest by camera centre).
    public init(mapImages: [PosedImage], feature: Feature, features: Int = 4000, neighbours: Int = 3,
                ratio: Double = 0.8, threshold: Double = 4, maxIterations: Int = 10000,
                minInliers: Int = 12) throws(VisionError) {
        guard mapImages.count >= 2, features > 0 else {
            throw VisionError(.invalidArgument, "the reference peer needs two map photos or more")
        }
        let params = vc_reference_params(feature: feature == .sift ? VC_REFERENCE_SIFT : VC_REFERENCE_ORB,
                                         features: Int32(clamping: features), neighbours: Int32(clamping: neighbours),
                                         ratio: ratio, ransac_threshold_px: threshold,
                                         max_iterations: Int32(clamping: maxIterations),
                                         min_inliers: Int32(clamping: minInliers))
        var points: Int32 = 0
        let p = ReferencePeerLocalizer.withImages(mapImages) { images in
            vc_reference_peer_create(images.baseAddress, Int32(images.count), params, &points)
        }
        guard let p else { throw VisionError(.internalError, "could not build the reference peer's map") }
        handle = Locked(Handle(pointer: p))
        pointCount = Int(points)
        self.feature = feature
    }

    deinit { handle.withLock { vc_reference_peer_destroy($0.pointer) } }

    /// Localizes one photo.
    public func localize(_ query: PosedImage) throws(VisionError) -> OpenCVPeerLocalizer.Result {
        var out = vc_peer_result()
        let status = handle.withLock { h in
            ReferencePeerLocalizer.withImages([query]) { vc_reference_peer_localize(h.pointer, $0.baseAddress, &out) }
        }
        try VisionError.check(status)
        return OpenCVPeerLocalizer.Result(out)
    }

    /// Runs `body` with C views of `images`; their pixels are copied into one buffer that
    /// stays valid for the call.
    private static func withImages<R>(_ images: [PosedImage], _ body: (UnsafeBufferPointer<vc_reference_image>) -> R) -> R {
        let all = images.flatMap(\.image.pixels)
        return all.withUnsafeBufferPointer { pixels in
            var c: [vc_reference_image] = []
            var offset = 0
            for im in images {
                let k = im.intrinsics, d = k.distortion + [0, 0, 0, 0]
                let cw = CameraFromWorld(im.pose)
                var v = vc_reference_image()
                v.pixels = pixels.baseAddress.map { $0 + offset }
                offset += im.image.pixels.count
                v.width = Int32(im.image.width); v.height = Int32(im.image.height)
                v.K = (k.fx, k.fy, k.cx, k.cy)
                v.distortion = (d[0], d[1], d[2], d[3])
                let r = cw.rotation.rowMajor
                v.R_cw = (r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[7], r[8])
                v.t_cw = (cw.translation.x, cw.translation.y, cw.translation.z)
                c.append(v)
            }
            return c.withUnsafeBufferPointer(body)
        }
    }
}
