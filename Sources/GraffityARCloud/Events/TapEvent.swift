import Geometry

/// A tap on the session host's view, and what it hit.
public struct TapEvent: Sendable, Hashable {
    /// The tapped pixel of the current frame.
    public var pixel: SIMD2<Double>
    /// The scene object hit nearest the camera, when any.
    public var objectId: String?
    /// Where the ray met that object, in the map frame.
    public var hitPoint: SIMD3<Double>?
    /// Why nothing was hit, when nothing was (for example "not localized").
    public var missReason: String?

    /// A tap at `pixel`, with what it hit or why it missed.
    public init(pixel: SIMD2<Double>, objectId: String? = nil, hitPoint: SIMD3<Double>? = nil,
                missReason: String? = nil) {
        self.pixel = pixel; self.objectId = objectId; self.hitPoint = hitPoint; self.missReason = missReason
    }
}
