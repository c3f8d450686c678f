import Geometry
import Support

/// A map's own length scale: the median distance from a keyframe to the points it
/// observes. Every length the localizer compares against (how far a pose may lie from
/// the mapping keyframes, which keyframes count as nearby, how far a tracking prior may
/// be off, the depth range points are projected in) is a multiple of it, so a map in
/// arbitrary units (a COLMAP model) localizes exactly as the same map in metres would.
///
/// The shipped gallery map (metres) has a scale of 3.50 m; the localizer's relative
/// defaults are its former metric thresholds divided by that.
public struct MapScale: Sendable, Hashable {
    /// The length, in the map's units.
    public let length: Double

    /// Computed once per map (one pass over the observations).
    public init(map: VPSMap) {
        let centres = map.keyframes.map(\.pose.center)
        var distances = [Double]()
        distances.reserveCapacity(map.observations.count)
        for o in map.observations {
            distances.append(Geometry.length(map.points.position(Int(o.point)) - centres[Int(o.keyframe)]))
        }
        let median = Statistics.median(distances) ?? 0
        // A map without observations (or all points on the cameras) has no scale: 1 unit.
        length = median.isFinite && median > 0 ? median : 1
    }

    /// `fraction` of the scale, in the map's units.
    public func callAsFunction(_ fraction: Double) -> Double { fraction * length }
}
