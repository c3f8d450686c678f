import Foundation
import Geometry

/// Where a map lies on the earth: a similarity transform from map coordinates to the local
/// east-north-up frame at a WGS 84 origin,
///
///     enu = scale · rotation · map + translation
///
/// - `origin`: the ENU frame's origin (`LocalTangentFrame`); any place near the map will do,
///   the transform is exact anywhere.
/// - `scale`: metres per map unit, positive (1 on a metric map).
/// - `rotation`: a unit quaternion rotating map axes into ENU axes (the columns of its
///   matrix are the map's x, y, z axes in east-north-up).
/// - `translation`: ENU metres (where the map's origin lies in the ENU frame).
/// - `source`: how it was found; `residuals`: how well it fits what it was fitted to (nil
///   when set by hand).
///
/// JSON (stored in a map file's metadata and returned by the service):
///
///     {"origin": {"latitude": 48.85, "longitude": 2.35, "height": 80},
///      "scale": 1, "rotation": {"x": 0, "y": 0, "z": 0, "w": 1},
///      "translation": {"east": 0, "north": 0, "up": 0},
///      "source": "gps",
///      "residuals": {"horizontalRMS": 2.1, "verticalRMS": 4.0, "inliers": 57, "readings": 60}}
public struct Georeference: Sendable, Hashable {
    /// How a georeference was found.
    public enum Source: String, Sendable, Hashable, Codable, CaseIterable {
        /// Fitted to GPS readings taken along the map's camera path (`SimilarityFit`).
        case gps
        /// Fitted to surveyed points whose map and WGS 84 coordinates are both known.
        case controlPoints
        /// Set by hand: an origin, a compass heading and the map's up axis.
        case manual
    }

    /// How well a fitted georeference agrees with the positions it was fitted to.
    public struct Residuals: Sendable, Hashable, Codable {
        /// Root mean square of the inliers' horizontal (east-north) residuals, metres.
        public var horizontalRMS: Double
        /// Root mean square of the inliers' vertical (up) residuals, metres.
        public var verticalRMS: Double
        /// The readings the fit kept, and all the usable readings it was given.
        public var inliers: Int
        public var readings: Int
        /// Where the kept readings lie: their mean fitted position (ENU metres) and the root
        /// mean square of their horizontal distances from it (metres). With the residuals
        /// they give the fit's own uncertainty (`Georeference.horizontalBound(at:)`); nil in
        /// a georeference that did not record them.
        public var centroid: SIMD3<Double>?
        public var spread: Double?

        public init(horizontalRMS: Double, verticalRMS: Double, inliers: Int, readings: Int,
                    centroid: SIMD3<Double>? = nil, spread: Double? = nil) {
            self.horizontalRMS = horizontalRMS; self.verticalRMS = verticalRMS
            self.inliers = inliers; self.readings = readings
            self.centroid = centroid; self.spread = spread
        }
    }

    public var origin: GeodeticPosition
    public var scale: Double
    public var rotation: Quaternion
    public var translation: SIMD3<Double>
    public var source: Source
    public var residuals: Residuals?

    public init(origin: GeodeticPosition, scale: Double, rotation: Quaternion, translation: SIMD3<Double>,
                source: Source, residuals: Residuals? = nil) {
        self.origin = origin; self.scale = scale; self.rotation = rotation; self.translation = translation
        self.source = source; self.residuals = residuals
    }

    /// Why this cannot be a georeference (a bad origin, a scale that is not positive, a
    /// rotation more than 10⁻³ off unit length, something not finite), or nil.
    public var problem: String? {
        if let p = origin.problem { return "origin: \(p)" }
        guard scale.isFinite, scale > 0 else { return "scale \(scale) must be positive and finite" }
        let q = [rotation.x, rotation.y, rotation.z, rotation.w]
        guard q.allSatisfy(\.isFinite), abs(rotation.norm - 1) < 1e-3 else {
            return "rotation (\(rotation.x), \(rotation.y), \(rotation.z), \(rotation.w)) is not a unit quaternion"
        }
        guard translation.x.isFinite, translation.y.isFinite, translation.z.isFinite else {
            return "translation must be finite"
        }
        return nil
    }

    /// The ENU frame the transform maps into.
    public var frame: LocalTangentFrame { LocalTangentFrame(origin: origin) }

    /// ENU coordinates (metres, at `origin`) of a map point (map units).
    public func enu(ofMapPoint p: SIMD3<Double>) -> SIMD3<Double> { scale * rotation.rotate(p) + translation }

    /// Map coordinates of an ENU point (metres, at `origin`).
    public func mapPoint(ofENU e: SIMD3<Double>) -> SIMD3<Double> { rotation.conjugate.rotate(e - translation) / scale }

    /// The WGS 84 position of a map point.
    public func position(ofMapPoint p: SIMD3<Double>) -> GeodeticPosition { frame.position(ofENU: enu(ofMapPoint: p)) }

    /// The map coordinates of a WGS 84 position.
    public func mapPoint(of position: GeodeticPosition) -> SIMD3<Double> { mapPoint(ofENU: frame.enu(of: position)) }
}

extension Georeference: Codable {
    private enum CodingKeys: String, CodingKey { case origin, scale, rotation, translation, source, residuals }
    private enum ENUKeys: String, CodingKey { case east, north, up }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let t = try c.nestedContainer(keyedBy: ENUKeys.self, forKey: .translation)
        self.init(origin: try c.decode(GeodeticPosition.self, forKey: .origin),
                  scale: try c.decode(Double.self, forKey: .scale),
                  rotation: try c.decode(Quaternion.self, forKey: .rotation),
                  translation: SIMD3(try t.decode(Double.self, forKey: .east), try t.decode(Double.self, forKey: .north),
                                     try t.decode(Double.self, forKey: .up)),
                  source: try c.decode(Source.self, forKey: .source),
                  residuals: try c.decodeIfPresent(Residuals.self, forKey: .residuals))
        if let problem {
            throw DecodingError.dataCorrupted(.init(codingPath: c.codingPath, debugDescription: problem))
        }
        // Written by hand or rounded, a quaternion reads back a hair off unit length.
        rotation = rotation.normalized
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(origin, forKey: .origin)
        try c.encode(scale, forKey: .scale)
        try c.encode(rotation, forKey: .rotation)
        var t = c.nestedContainer(keyedBy: ENUKeys.self, forKey: .translation)
        try t.encode(translation.x, forKey: .east)
        try t.encode(translation.y, forKey: .north)
        try t.encode(translation.z, forKey: .up)
        try c.encode(source, forKey: .source)
        try c.encodeIfPresent(residuals, forKey: .residuals)
    }
}
