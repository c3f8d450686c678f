import Support

/// One feature extractor's times and results over the frames of one `bench features`
/// configuration, and their medians (`Statistics.median`).
public struct ExtractorTally: Sendable {
    /// Time of each extraction in milliseconds, on the benchmark's clock.
    public private(set) var milliseconds: [Double] = []
    /// Features extracted from each frame.
    public private(set) var counts: [Int] = []
    /// Cells of the 8x6 grid of 80-px squares holding at least one feature, per frame (of 48).
    public private(set) var occupiedCells: [Int] = []

    public init() {}

    /// Records one frame: its extraction time and the features' pixel positions.
    public mutating func add(milliseconds ms: Double, points: [SIMD2<Double>]) {
        milliseconds.append(ms)
        counts.append(points.count)
        occupiedCells.append(Self.occupiedCells(points))
    }

    /// Median time per frame, milliseconds (NaN when empty).
    public var medianMilliseconds: Double { Statistics.median(milliseconds) ?? .nan }
    /// Median feature count, truncated to a whole number.
    public var medianCount: Int { Int(Statistics.median(counts.map(Double.init)) ?? .nan) }
    /// Median number of occupied grid cells, truncated to a whole number.
    public var medianOccupiedCells: Int { Int(Statistics.median(occupiedCells.map(Double.init)) ?? .nan) }

    /// Cells of the 8x6 grid of 80-px squares (a 640x480 frame) that hold at least one point.
    public static func occupiedCells(_ points: [SIMD2<Double>]) -> Int {
        Set(points.map { min(5, max(0, Int($0.y) / 80)) * 8 + min(7, max(0, Int($0.x) / 80)) }).count
    }
}
