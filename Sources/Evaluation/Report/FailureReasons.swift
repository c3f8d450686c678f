import Foundation
import VPSModel

/// Failed frames grouped by the kind of reason (the reason without its numbers), each
/// kind with a colour and a count for the legends.
struct FailureReasons {
    private(set) var kinds: [(kind: String, count: Int)] = []
    static let palette = ["#d7191c", "#e66101", "#5e3c99", "#4d4d4d", "#b2182b", "#8c510a"]

    init<Outcomes: Sequence<FrameOutcome>>(_ outcomes: Outcomes) {
        var counts: [String: Int] = [:]
        var order: [String] = []
        for o in outcomes where !o.result.isLocalized {
            let k = FailureReasons.kind(of: o.result.reason)
            if counts[k] == nil { order.append(k) }
            counts[k, default: 0] += 1
        }
        kinds = order.map { (kind: $0, count: counts[$0]!) }.sorted { $0.count > $1.count }
    }

    /// The reason up to its first figure or parenthesis: "too few inliers (12 < 20)" →
    /// "too few inliers".
    static func kind(of reason: String?) -> String {
        guard let reason, !reason.isEmpty else { return "not localized" }
        var cut = reason.startIndex
        for i in reason.indices {
            let c = reason[i]
            if c == "(" || c == ":" || c == ";" || c == "," || c.isNumber { break }
            cut = reason.index(after: i)
        }
        let k = reason[..<cut].trimmingCharacters(in: .whitespaces)
        return k.isEmpty ? String(reason.prefix(40)) : k
    }

    func color(of o: FrameOutcome) -> String {
        let k = FailureReasons.kind(of: o.result.reason)
        let i = kinds.firstIndex { $0.kind == k } ?? 0
        return FailureReasons.palette[min(i, FailureReasons.palette.count - 1)]
    }

    var legend: [PlotFrame.LegendEntry] {
        kinds.prefix(FailureReasons.palette.count).enumerated().map { i, k in
            PlotFrame.LegendEntry(color: FailureReasons.palette[i], label: "failed: \(k.kind) (\(k.count))", shape: .cross)
        }
    }
}
