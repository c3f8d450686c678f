import Geodesy
import Geometry

/// One frame to localize: the encoded image, the camera that took it, and optionally a
/// pose prior (the last fix carried forward by device odometry).
public struct LocalizationRequest: Sendable, Hashable {
    /// The map to localize against.
    public var mapId: String
    /// The camera frame, JPEG or PNG.
    public var image: EncodedImage
    /// Intrinsics for the image as encoded.
    public var intrinsics: CameraIntrinsics
    /// A guess of `T_map_camera`; nil before the first fix.
    public var prior: Pose?
    /// The 95 % bounds of `prior`'s error (`OdometryTracker.predictAccuracy`); nil when unknown.
    public var priorAccuracy: PoseAccuracy?
    /// The device's gravity in camera coordinates (world down), from its gravity-aligned
    /// tracking; nil when unknown.
    public var gravity: SIMD3<Double>?
    /// The recorded frame this image is, for diagnostics; nil when not from a recording.
    public var frameId: String?
    /// The device's GPS reading: in a georeferenced map the keyframes near it are searched
    /// first (`LocationPrior`); it never bends the pose.
    public var location: GPSReading?

    /// A request for one frame.
    public init(mapId: String, image: EncodedImage, intrinsics: CameraIntrinsics,
                prior: Pose? = nil, priorAccuracy: PoseAccuracy? = nil, gravity: SIMD3<Double>? = nil,
                frameId: String? = nil, location: GPSReading? = nil) {
        self.mapId = mapId; self.image = image; self.intrinsics = intrinsics
        self.prior = prior; self.priorAccuracy = priorAccuracy; self.gravity = gravity; self.frameId = frameId; self.location = location
    }
}
