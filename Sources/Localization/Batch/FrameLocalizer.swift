import Geometry
import VPSModel

/// Localizes one encoded frame: the embedded `Localizer`, or the HTTP service for a batch
/// run over the network. `BatchLocalizer` runs either the same way.
public protocol FrameLocalizer: Sendable {
    /// Localizes an encoded JPEG or PNG image (see `Localizer.localize(encoded:intrinsics:prior:gravity:)`).
    func localize(encoded bytes: [UInt8], intrinsics: CameraIntrinsics, prior: Pose?,
                  gravity: SIMD3<Double>?) throws -> LocalizationResult
}

extension Localizer: FrameLocalizer {}
