import Foundation

/// The report's acceptance thresholds in map units (translation) and degrees.
///
/// They come from the summary, so when thresholds follow the map's units (metres, or a
/// share of the scene's size) the report follows too; the first is the primary one.
struct ReportThresholds: Sendable, Hashable {
    var levels: [(translation: Double, degrees: Double)]
    /// Each level's share of the scene scale, when the map's units are unknown (nil: metres).
    var sceneScaleShares: [Double?] = []

    static func == (a: ReportThresholds, b: ReportThresholds) -> Bool {
        a.levels.map(\.translation) == b.levels.map(\.translation) && a.levels.map(\.degrees) == b.levels.map(\.degrees)
            && a.sceneScaleShares == b.sceneScaleShares
    }
    func hash(into h: inout Hasher) {
        for l in levels { h.combine(l.translation); h.combine(l.degrees) }
        h.combine(sceneScaleShares)
    }

    init(_ summary: AccuracySummary) {
        levels = summary.recall.map { (translation: $0.threshold.translation, degrees: $0.threshold.degrees) }
        sceneScaleShares = summary.recall.map(\.threshold.sceneScaleShare)
    }

    init(levels: [(translation: Double, degrees: Double)]) { self.levels = levels }

    /// Index of the first threshold `error` is within, or nil (beyond all).
    func level(of error: (translation: Double, rotationDegrees: Double)) -> Int? {
        levels.firstIndex { error.translation <= $0.translation && error.rotationDegrees <= $0.degrees }
    }

    /// Colours from "within the primary threshold" to "beyond every threshold".
    static let colors = ["#1a9641", "#a6d96a", "#fdae61", "#d7191c"]

    func color(of error: (translation: Double, rotationDegrees: Double)) -> String {
        let i = level(of: error) ?? levels.count
        return ReportThresholds.colors[min(i, ReportThresholds.colors.count - 1)]
    }

    /// `(5 cm, 2°)`: each length in the unit that keeps it short (1 m, not 100 cm).
    func label(_ i: Int, unit: ReportMap.LengthUnit) -> String {
        let l = levels[i]
        let length: String
        if i < sceneScaleShares.count, let share = sceneScaleShares[i] {
            length = compact(share * 100) + " % of scene scale"
        } else {
            switch unit {
            case .metres: length = l.translation < 1 ? compact(l.translation * 100) + " cm" : compact(l.translation) + " m"
            case .mapUnits: length = compact(l.translation) + " map units"
            }
        }
        return "(" + length + ", " + compact(l.degrees) + "°)"
    }

    private func compact(_ v: Double) -> String { String(format: "%g", (v * 1e6).rounded() / 1e6) }
}
