import Foundation
import MapModel
import VPSModel

/// What the report draws of the map: its points (under the trajectory, and to project
/// the inlier matches of the worst frames), its sections, which way is up and in what
/// unit lengths are.
///
/// A plain value rather than a `VPSMap`, so the report does not depend on how a map is
/// held in memory (and a test can make one in a line).
public struct ReportMap: Sendable, Hashable {
    /// Point positions in the map frame, indexed like the map's points (a
    /// `LocalizationResult.InlierMatch.point` indexes this array).
    public var points: [SIMD3<Double>]
    public var sections: [MapSection]
    /// Up in the map frame (unit), or nil when the map does not know it: the top-down
    /// view then looks along the axis the trajectory varies least in.
    public var up: SIMD3<Double>?
    /// The unit of map lengths.
    public var lengthUnit: LengthUnit

    public enum LengthUnit: Sendable, Hashable {
        /// Lengths are metres (errors show in cm or m).
        case metres
        /// The map has its own scale (say, a COLMAP model that was never scaled).
        case mapUnits
    }

    public init(points: [SIMD3<Double>], sections: [MapSection] = [], up: SIMD3<Double>? = SIMD3(0, 1, 0),
                lengthUnit: LengthUnit = .metres) {
        self.points = points; self.sections = sections; self.up = up; self.lengthUnit = lengthUnit
    }

    /// A map with nothing to draw and the defaults of the shipped maps (metres, +y up).
    public static let none = ReportMap(points: [])

    /// The points, sections, up and units of a loaded map (positions are stored flat,
    /// x y z per point).
    public init(_ map: VPSMap) {
        let flat = map.points.positions
        var points: [SIMD3<Double>] = []
        points.reserveCapacity(flat.count / 3)
        for i in stride(from: 0, to: flat.count - 2, by: 3) { points.append(SIMD3(flat[i], flat[i + 1], flat[i + 2])) }
        self.init(points: points, sections: map.scene.sections, up: map.metadata.up.vector,
                  lengthUnit: map.metadata.units == .metres ? .metres : .mapUnits)
    }
}
