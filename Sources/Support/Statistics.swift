/// Order statistics over samples, by linear interpolation between closest ranks
/// (the same definition as numpy's default `percentile`).
public enum Statistics {
    /// The `p`-th percentile (0…100) of `values`; nil when empty.
    public static func percentile(_ values: [Double], _ p: Double) -> Double? {
        guard !values.isEmpty else { return nil }
        let s = values.sorted()
        return percentile(sorted: s, p)
    }

    /// As `percentile(_:_:)` on values already sorted ascending.
    public static func percentile(sorted s: [Double], _ p: Double) -> Double? {
        guard !s.isEmpty else { return nil }
        let r = percentileRanks(count: s.count, p)
        return interpolate(s[r.lower], s[r.upper], at: r)
    }

    /// Where the `p`-th percentile of `count` sorted values lies: between the values at
    /// ranks `lower` and `upper`, at `rank`. With `interpolate` it is `percentile(sorted:_:)`
    /// for values read back in order rather than held (`SpilledSort`).
    public static func percentileRanks(count: Int, _ p: Double) -> (lower: Int, upper: Int, rank: Double) {
        let rank = min(max(p, 0), 100) / 100 * Double(count - 1)
        return (Int(rank.rounded(.down)), Int(rank.rounded(.up)), rank)
    }

    /// The percentile between `low` and `high`, the values at the ranks of `at`.
    public static func interpolate(_ low: Double, _ high: Double, at r: (lower: Int, upper: Int, rank: Double)) -> Double {
        low + (high - low) * (r.rank - Double(r.lower))
    }

    public static func median(_ values: [Double]) -> Double? { percentile(values, 50) }

    /// The `p`-th percentile (0…100) of values sorted ascending, without interpolation: the
    /// sample at the closest rank below (numpy's `method="lower"`), so always one of the
    /// samples, of any ordered type. nil when empty.
    public static func lowerPercentile<T>(sorted s: [T], _ p: Double) -> T? {
        guard !s.isEmpty else { return nil }
        return s[Int((min(max(p, 0), 100) / 100 * Double(s.count - 1)).rounded(.down))]
    }

    /// As `lowerPercentile(sorted:_:)`, the sample at the closest rank above (numpy's
    /// `method="higher"`): the upper median at 50.
    public static func higherPercentile<T>(sorted s: [T], _ p: Double) -> T? {
        guard !s.isEmpty else { return nil }
        return s[Int((min(max(p, 0), 100) / 100 * Double(s.count - 1)).rounded(.up))]
    }

    public static func rms(_ values: [Double]) -> Double? {
        guard !values.isEmpty else { return nil }
        return (values.reduce(0) { $0 + $1 * $1 } / Double(values.count)).squareRoot()
    }
}
