import Geodesy

/// A ground control point: a landmark whose WGS 84 position was surveyed, and where it
/// appears in the build's images. The map builder triangulates it from the images with
/// the frames' known poses and fits the map's georeference to these points
/// (`MapBuilder.georeference`).
///
/// Read from OpenSfM's `ground_control_points.json` by `GroundControlPoints` (`Formats`),
/// which turns its normalized image coordinates into pixels with each frame's image size.
public struct ControlPoint: Sendable, Hashable {
    /// Where the point appears in one frame.
    public struct Observation: Sendable, Hashable {
        /// The frame's name (`MapBuildFrame.name`).
        public var frame: String
        /// The raw (distorted) image pixel, x right and y down, the top-left pixel's centre
        /// at (0, 0).
        public var pixel: SIMD2<Double>

        public init(frame: String, pixel: SIMD2<Double>) { self.frame = frame; self.pixel = pixel }
    }

    /// The point's name, for messages.
    public var id: String
    /// The surveyed position; nil when the file gives none (OpenSfM allows it, for points
    /// that only tie images together: such a point cannot place the map and is refused).
    /// Without a surveyed altitude `height` is 0 and `hasAltitude` false: the point then
    /// places the map horizontally only.
    public var position: GeodeticPosition?
    public var hasAltitude: Bool
    /// The observations in the build's frames.
    public var observations: [Observation]
    /// The images the point was observed in that are not among the build's frames: they
    /// are reported, and the point is triangulated from the others.
    public var unmatchedImages: [String]

    public init(id: String, position: GeodeticPosition?, hasAltitude: Bool, observations: [Observation],
                unmatchedImages: [String] = []) {
        self.id = id; self.position = position; self.hasAltitude = hasAltitude
        self.observations = observations; self.unmatchedImages = unmatchedImages
    }
}
