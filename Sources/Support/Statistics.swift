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
        let rank = min(max(p, 0), 100) / 100 * Double(s.count - 1)
        let lo = Int(rank.rounded(.down)), hi = Int(rank.rounded(.up))
        return s[lo] + (s[hi] - s[lo]) * (rank - Double(lo))
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
