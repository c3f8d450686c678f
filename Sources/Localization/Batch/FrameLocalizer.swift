import Geodesy
import Geometry
import VPSModel

/// Localizes one encoded frame: the embedded `Localizer`, or the HTTP service for a batch
/// run over the network. `BatchLocalizer` runs either the same way.
public protocol FrameLocalizer: Sendable {
    /// Localizes an encoded JPEG or PNG image (see `Localizer.localize(encoded:intrinsics:prior:gravity:near:)`).
    /// `location` is the phone's GPS reading: in a georeferenced map it narrows the search
    /// (`LocationPrior`); elsewhere it is ignored.
    func localize(encoded bytes: [UInt8], intrinsics: CameraIntrinsics, prior: Pose?,
                  gravity: SIMD3<Double>?, location: GPSReading?) throws -> LocalizationResult

    /// As `localize(encoded:intrinsics:prior:gravity:location:)`, with the 95 % accuracy of
    /// `prior` (`OdometryTracker.predictAccuracy`). By default the accuracy is not passed on.
    func localize(encoded bytes: [UInt8], intrinsics: CameraIntrinsics, prior: Pose?, priorAccuracy: PoseAccuracy?,
                  gravity: SIMD3<Double>?, location: GPSReading?) throws -> LocalizationResult
}

extension FrameLocalizer {
    public func localize(encoded bytes: [UInt8], intrinsics: CameraIntrinsics, prior: Pose?, priorAccuracy: PoseAccuracy?,
                         gravity: SIMD3<Double>?, location: GPSReading?) throws -> LocalizationResult {
        try localize(encoded: bytes, intrinsics: intrinsics, prior: prior, gravity: gravity, location: location)
    }
}

extension Localizer: FrameLocalizer {
    public func localize(encoded bytes: [UInt8], intrinsics: CameraIntrinsics, prior: Pose?,
                         gravity: SIMD3<Double>?, location: GPSReading?) throws -> LocalizationResult {
        try localize(encoded: bytes, intrinsics: intrinsics, prior: prior, priorAccuracy: nil, gravity: gravity,
                     location: location)
    }

    public func localize(encoded bytes: [UInt8], intrinsics: CameraIntrinsics, prior: Pose?, priorAccuracy: PoseAccuracy?,
                         gravity: SIMD3<Double>?, location: GPSReading?) throws -> LocalizationResult {
        try localize(encoded: bytes, intrinsics: intrinsics, prior: prior, priorAccuracy: priorAccuracy, gravity: gravity,
                     near: LocationPrior(location, georeference: map.metadata.georeference))
    }
}
