import Foundation
import SceneSynthesis

/// One size of `bench scale`: a synthetic building and how it was asked for.
public struct ScaleSize: Sendable {
    /// As given: `30k`, `1M` or `FxWxR`.
    public var label: String
    public var building: BuildingSize

    public init(label: String, building: BuildingSize) { self.label = label; self.building = building }

    /// Why `--sizes` was refused: the whole message, naming the option.
    public struct ParseError: Error, Sendable, CustomStringConvertible {
        public let description: String
    }

    /// Map points of one room, and per wing of a hall segment and of the corridor for
    /// each pair of rooms, as maps of the building came out (rounded): the target sizes
    /// pick buildings with them.
    public static let pointsPerRoom = 8_000, pointsPerHall = 12_500, pointsPerCorridorPair = 5_000

    /// Map points expected of a building, from the per-room, per-hall and per-corridor figures.
    public static func estimatedPoints(_ b: BuildingSize) -> Int {
        b.floors * b.wings * (pointsPerHall + pointsPerCorridorPair * ((b.rooms + 1) / 2) + pointsPerRoom * b.rooms)
    }

    /// The building nearest `points`: one wing of up to six rooms, else wings of six rooms
    /// on as few floors of at most six wings as hold them.
    public static func building(forPoints points: Int) -> BuildingSize {
        let wing = estimatedPoints(BuildingSize(floors: 1, wings: 1, rooms: 6))
        if points <= wing {
            let rooms = (1...6).min {
                abs(estimatedPoints(BuildingSize(floors: 1, wings: 1, rooms: $0)) - points)
                    < abs(estimatedPoints(BuildingSize(floors: 1, wings: 1, rooms: $1)) - points)
            }!
            return BuildingSize(floors: 1, wings: 1, rooms: rooms)
        }
        let wings = (points + wing - 1) / wing
        let floors = (wings + 5) / 6
        return BuildingSize(floors: floors, wings: (wings + floors - 1) / floors, rooms: 6)
    }

    /// Parses `--sizes`, e.g. `30k,300k,1M,2x3x6`: point counts (at most 50 M) or buildings.
    public static func parse(_ text: String) throws(ParseError) -> [ScaleSize] {
        func refuse(_ message: String) -> ParseError { ParseError(description: "option '--sizes'" + message) }
        let items = text.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        guard !items.isEmpty, !items.contains(where: \.isEmpty) else {
            throw refuse(" needs a comma-separated list, got '\(text)'")
        }
        return try items.map { (item) throws(ParseError) -> ScaleSize in
            let parts = item.lowercased().split(separator: "x", omittingEmptySubsequences: false)
            if parts.count == 3 {
                let n = parts.compactMap { Int($0) }
                let b = BuildingSize(floors: n.count == 3 ? n[0] : 0, wings: n.count == 3 ? n[1] : 0, rooms: n.count == 3 ? n[2] : 0)
                if n.count != 3 || b.problem != nil {
                    throw refuse(": '\(item)' is not a building FxWxR (\(b.problem ?? "whole numbers"))")
                }
                return ScaleSize(label: item, building: b)
            }
            let lower = item.lowercased()
            let (digits, factor) = lower.hasSuffix("k") ? (lower.dropLast(), 1_000.0)
                : lower.hasSuffix("m") ? (lower.dropLast(), 1_000_000.0) : (Substring(lower), 1.0)
            guard let value = Double(digits), value > 0, value * factor <= 50_000_000 else {
                throw refuse(": '\(item)' is neither a point count (30k, 1M) nor a building FxWxR")
            }
            let building = Self.building(forPoints: Int(value * factor))
            if let p = building.problem { throw refuse(": \(item) needs too large a building (\(p))") }
            return ScaleSize(label: item, building: building)
        }
    }
}
