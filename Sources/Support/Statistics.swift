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

    public static func rms(_ values: [Double]) -> Double? {
        guard !values.isEmpty else { return nil }
        return (values.reduce(0) { $0 + $1 * $1 } / Double(values.count)).squareRoot()
    }
}
