import Geometry

/// One frame to localize: the encoded image, the camera that took it, and optionally a
/// pose prior (the last fix carried forward by device odometry).
public struct LocalizationRequest: Sendable, Hashable {
    public var mapId: String
    public var image: EncodedImage
    /// Intrinsics for the image as encoded.
    public var intrinsics: CameraIntrinsics
    /// A guess of `T_map_camera`; nil before the first fix.
    public var prior: Pose?
    /// The recorded frame this image is, for diagnostics; nil when not from a recording.
    public var frameId: String?

    public init(mapId: String, image: EncodedImage, intrinsics: CameraIntrinsics,
                prior: Pose? = nil, frameId: String? = nil) {
        self.mapId = mapId; self.image = image; self.intrinsics = intrinsics
        self.prior = prior; self.frameId = frameId
    }
}
