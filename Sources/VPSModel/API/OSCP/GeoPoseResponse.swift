import Foundation
import Geodesy

/// The answer of the OSCP GeoPose protocol (`GeoPoseResp`): the camera's GeoPose (OGC
/// Basic-Quaternion, camera axes as `GeoPose` states) and its accuracy.
public struct GeoPoseResponse: Sendable, Hashable, Codable {
    /// The request's id.
    public var id: String
    /// Milliseconds since the Unix epoch when the answer was made.
    public var timestamp: Double
    public var accuracy: Accuracy
    /// Always `geopose`.
    public var type: String
    public var geopose: GeoPose

    /// The protocol's `GeoPoseAccuracy`. arcloud states bounds at probability 0.95 here, in metres on the
    /// camera centre and in degrees on the orientation (`LocalizationResult.geoAccuracy`),
    /// which are larger than the per-component means the protocol's comment names: a
    /// client that trusts them errs on the safe side.
    public struct Accuracy: Sendable, Hashable, Codable {
        public var position: Double
        public var orientation: Double
        public init(position: Double, orientation: Double) { self.position = position; self.orientation = orientation }
    }

    public init(id: String, timestamp: Double, accuracy: Accuracy, geopose: GeoPose) {
        self.id = id; self.timestamp = timestamp; self.accuracy = accuracy; self.type = "geopose"; self.geopose = geopose
    }
}
