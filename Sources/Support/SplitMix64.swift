import Foundation

/// A small deterministic random generator (SplitMix64): the same seed gives the same
/// sequence on every run and machine, which synthetic data (scenes, benchmark sets, test
/// fixtures) relies on.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    @usableFromInline var state: UInt64

    /// Starts the sequence at `seed`.
    public init(seed: UInt64) { state = seed }

    // Inlinable: the scene generator and the benchmarks draw millions of numbers.
    @inlinable
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Uniform in [0, 1): the top 53 bits.
    public mutating func unit() -> Double { Double(next() >> 11) * 0x1p-53 }

    /// Standard normal (Box–Muller over the standard library's uniform doubles).
    public mutating func gaussian() -> Double {
        let u1 = Double.random(in: Double.ulpOfOne ..< 1, using: &self)
        let u2 = Double.random(in: 0 ..< 1, using: &self)
        return (-2 * log(u1)).squareRoot() * cos(2 * .pi * u2)
    }
}
