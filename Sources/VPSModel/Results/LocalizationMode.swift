/// How the localizer searches for 2D–3D correspondences in a recorded session.
public enum LocalizationMode: String, Sendable, Hashable, Codable, CaseIterable {
    /// Every frame alone, by global (vocabulary) matching.
    case singleShot = "single-shot"
    /// The previous result composed with the device odometry predicts the pose; guided
    /// matching around that prediction, falling back to single-shot when it fails.
    case tracking
}
