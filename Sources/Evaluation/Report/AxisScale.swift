import Foundation

/// One axis of a plot: a value range mapped onto a pixel range, linear or logarithmic,
/// with ticks at round numbers.
///
/// Linear ticks follow the "nice numbers" rule (Heckbert, Graphics Gems 1990): the step is
/// 1, 2 or 5 times a power of ten, and the range is widened to whole steps, so a reader
/// never has to interpolate between 0.37 and 0.74. Logarithmic ticks sit at 1, 2 and 5
/// times each power of ten (only at the powers when the range spans many decades).
struct AxisScale: Sendable, Hashable {
    enum Kind: Sendable, Hashable { case linear, logarithmic }

    var kind: Kind
    /// The value range shown, already rounded out to ticks.
    var lower: Double
    var upper: Double
    /// Tick values, ascending, all within `lower…upper`.
    var ticks: [Double]

    /// A linear axis covering `lower…upper` with about `count` ticks at nice numbers.
    static func linear(_ lower: Double, _ upper: Double, about count: Int = 6) -> AxisScale {
        var lo = lower.isFinite ? lower : 0, hi = upper.isFinite ? upper : 1
        if lo > hi { swap(&lo, &hi) }
        if hi - lo < 1e-12 * max(1, abs(lo)) { lo -= max(abs(lo) * 0.1, 0.5); hi = lo + 2 * max(abs(lo) * 0.1, 0.5) }
        let step = niceNumber((hi - lo) / Double(max(count - 1, 1)), round: true)
        let first = (lo / step).rounded(.down) * step, last = (hi / step).rounded(.up) * step
        var ticks: [Double] = []
        var k = 0
        while true {
            let v = first + Double(k) * step
            if v > last + step * 1e-9 { break }
            ticks.append(AxisScale.snap(v, step: step))
            k += 1
        }
        return AxisScale(kind: .linear, lower: ticks.first ?? first, upper: ticks.last ?? last, ticks: ticks)
    }

    /// A linear axis with ticks every `step`: over `lower…upper` rounded out to whole
    /// steps, or over exactly `lower…upper` when `exactRange` (a view whose aspect is fixed).
    static func linear(_ lower: Double, _ upper: Double, step: Double, exactRange: Bool = false) -> AxisScale {
        let step = step > 0 && step.isFinite ? step : 1
        let first = (lower / step).rounded(.up) * step, last = (upper / step).rounded(.down) * step
        var ticks: [Double] = []
        var k = 0.0
        while first + k * step <= last + step * 1e-9 {
            ticks.append(AxisScale.snap(first + k * step, step: step))
            k += 1
        }
        if exactRange { return AxisScale(kind: .linear, lower: lower, upper: upper, ticks: ticks) }
        let lo = (lower / step).rounded(.down) * step, hi = max((upper / step).rounded(.up) * step, lo + step)
        return linear(lo, hi, step: step, exactRange: true)
    }

    /// Distance between neighbouring ticks of a linear axis (1 with fewer than two ticks).
    var step: Double { ticks.count > 1 ? ticks[1] - ticks[0] : 1 }

    /// A logarithmic axis covering `lower…upper` (both > 0), widened to ticks at 1, 2, 5 × 10ⁿ.
    static func logarithmic(_ lower: Double, _ upper: Double) -> AxisScale {
        var lo = lower > 0 && lower.isFinite ? lower : 1e-3
        var hi = upper > 0 && upper.isFinite ? upper : 1
        if lo > hi { swap(&lo, &hi) }
        let fine: [Double] = [1, 2, 5]
        var candidates: [Double] = []
        let e0 = Int(log10(lo).rounded(.down)), e1 = Int(log10(hi).rounded(.up))
        for e in (e0 - 1)...(e1 + 1) {
            let p = pow(10, Double(e))
            for m in fine { candidates.append(exactDecimal(m * p, exponent: e)) }
        }
        let below = candidates.last { $0 <= lo * (1 + 1e-9) } ?? candidates[0]
        let above = candidates.first { $0 >= hi * (1 - 1e-9) } ?? candidates[candidates.count - 1]
        var ticks = candidates.filter { $0 >= below && $0 <= above }
        // Over many decades 1-2-5 would crowd the axis: keep the powers of ten (and the ends).
        if ticks.count > 10 {
            ticks = ticks.filter { v in v == below || v == above || abs(log10(v) - log10(v).rounded()) < 1e-9 }
        }
        return AxisScale(kind: .logarithmic, lower: below, upper: above, ticks: ticks)
    }

    /// Position of `v` as a fraction 0…1 of the axis (outside when `v` is out of range).
    func fraction(_ v: Double) -> Double {
        switch kind {
        case .linear: return (v - lower) / (upper - lower)
        case .logarithmic: return (log10(max(v, .leastNormalMagnitude)) - log10(lower)) / (log10(upper) - log10(lower))
        }
    }

    /// Label of a tick: as few decimals as the step needs, no exponent notation.
    func label(_ v: Double) -> String {
        switch kind {
        case .linear: return AxisScale.format(v, decimals: decimals)
        // Each decade needs its own decimals: 0.002, 0.5, 10.
        case .logarithmic: return AxisScale.format(v, decimals: max(0, Int(-log10(v).rounded(.down))))
        }
    }

    /// Decimals that tell every tick of a linear axis apart.
    var decimals: Int {
        ticks.count > 1 ? max(0, Int(-log10(step * (1 + 1e-9)).rounded(.down))) : 0
    }

    static func format(_ v: Double, decimals: Int) -> String {
        let s = String(format: "%.\(min(decimals, 9))f", v)
        return s == "-0" ? "0" : s
    }

    /// The nice number near `x`: 1, 2, 5 or 10 times a power of ten (rounded, or the
    /// smallest not below `x` when `round` is false).
    static func niceNumber(_ x: Double, round: Bool) -> Double {
        guard x > 0, x.isFinite else { return 1 }
        let exponent = log10(x).rounded(.down)
        let fraction = x / pow(10, exponent)
        let nice: Double
        if round {
            nice = fraction < 1.5 ? 1 : fraction < 3 ? 2 : fraction < 7 ? 5 : 10
        } else {
            nice = fraction <= 1 ? 1 : fraction <= 2 ? 2 : fraction <= 5 ? 5 : 10
        }
        return nice * pow(10, exponent)
    }

    /// `v` rounded to the decimals of `step`, so float noise (0.6000000000000001) does not
    /// reach labels or comparisons.
    static func snap(_ v: Double, step: Double) -> Double {
        let decimals = max(0, Int(-log10(step).rounded(.down))) + 1
        return Double(String(format: "%.\(min(decimals, 15))f", v)) ?? v
    }

    /// `m × 10^e` without the binary noise of `pow` (so 0.05 prints and compares as 0.05).
    private static func exactDecimal(_ v: Double, exponent e: Int) -> Double {
        e >= 0 ? v.rounded() : Double(String(format: "%.\(-e)f", v)) ?? v
    }
}
