import Geodesy
import Geometry

extension MapMetadata {
    /// Why a map cannot be placed on the earth by hand.
    public struct PlacementRefusal: Error, Sendable, Hashable, CustomStringConvertible {
        public let description: String
    }

    /// The georeference that puts this map's origin at `origin`, its up axis up and its +x
    /// axis (made horizontal) at compass bearing `headingDegrees` (0 north, 90 east), with
    /// `scale` metres per map unit (nil: 1 on a metric map). Refused when the map's up is
    /// unknown (a heading turns about it) or its units are and no scale is given.
    public func handPlacedGeoreference(origin: GeodeticPosition, headingDegrees: Double,
                                       scale: Double?) throws(PlacementRefusal) -> Georeference {
        guard let up = up.vector else {
            throw PlacementRefusal(description: "the map's up is unknown, so a heading has nothing to turn about: "
                                   + "rebuild it with --up")
        }
        guard units == .metres || scale != nil else {
            throw PlacementRefusal(description: "the map's units are unknown: give its scale (metres per map unit)")
        }
        let x = SIMD3<Double>(1, 0, 0), z = SIMD3<Double>(0, 0, 1)
        var forward = x - dot(x, up) * up
        if length(forward) < 1e-6 { forward = z - dot(z, up) * up }
        do {
            return try Georeference.manual(origin: origin, headingDegrees: headingDegrees, mapUp: up,
                                           mapForward: forward / length(forward), scale: scale ?? 1)
        } catch { throw PlacementRefusal(description: "\(error)") }
    }
}
