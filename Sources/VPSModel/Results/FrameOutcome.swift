import Geometry

/// One frame of a batch run: what the localizer said, and the ground truth when known.
/// Written as one JSON line per frame by `arcloud localize`.
public struct FrameOutcome: Sendable, Hashable, Codable {
    public var frameId: String
    /// The frame's image, as the session names it (`frames/IMG_0042.jpg`); nil in runs
    /// written before images were named.
    public var image: String?
    /// The frame's timestamp as recorded (see `RecordedSession.Frame.timestamp`).
    public var timestamp: Double
    public var result: LocalizationResult
    public var groundTruth: Pose?

    public init(frameId: String, image: String? = nil, timestamp: Double, result: LocalizationResult, groundTruth: Pose?) {
        self.frameId = frameId; self.image = image; self.timestamp = timestamp
        self.result = result; self.groundTruth = groundTruth
    }

    /// Translation (metres) and rotation (degrees) error, when localized and ground truth is known.
    public var error: (translation: Double, rotationDegrees: Double)? {
        guard let p = result.pose, let g = groundTruth else { return nil }
        return p.error(to: g)
    }
}
