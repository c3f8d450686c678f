import Foundation

/// How the report shows lengths: metres as cm or m (whichever keeps numbers short), a map
/// of its own scale in its own units.
struct LengthDisplay: Sendable, Hashable {
    /// Multiplies a length in map units into the shown unit.
    var factor: Double
    /// The shown unit's symbol: `cm`, `m` or `map units`.
    var unit: String

    /// The unit for lengths up to about `largest` (map units).
    static func forLengths(upTo largest: Double, unit: ReportMap.LengthUnit) -> LengthDisplay {
        switch unit {
        case .mapUnits: return LengthDisplay(factor: 1, unit: "map units")
        case .metres: return largest <= 2 ? LengthDisplay(factor: 100, unit: "cm") : LengthDisplay(factor: 1, unit: "m")
        }
    }

    /// `value` (map units) with its unit, e.g. `4.37 cm`.
    func text(_ value: Double, decimals: Int = 2) -> String {
        String(format: "%.\(decimals)f", value * factor) + " " + unit
    }
}
