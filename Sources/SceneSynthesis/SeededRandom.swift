import Foundation
import Support

/// The synthetic datasets' random numbers: SplitMix64 (the same seed gives the same
/// sequence on every run and machine), with named sub-streams and the draws the generator uses.
public struct SeededRandom: RandomNumberGenerator, Sendable {
    private var base: SplitMix64

    public init(seed: UInt64) { base = SplitMix64(seed: seed) }

    /// An independent generator for a named sub-stream (e.g. one texture), so adding a
    /// draw in one part of the generator does not shift the numbers of another.
    public init(seed: UInt64, stream: String) {
        var h: UInt64 = 0xcbf29ce484222325  // FNV-1a of the stream name
        for b in stream.utf8 { h = (h ^ UInt64(b)) &* 0x100000001b3 }
        base = SplitMix64(seed: seed ^ h)
        _ = next()
    }

    public mutating func next() -> UInt64 { base.next() }

    /// Uniform in [0, 1).
    public mutating func unit() -> Double { base.unit() }

    /// Uniform in `range`.
    public mutating func uniform(_ range: ClosedRange<Double>) -> Double {
        range.lowerBound + (range.upperBound - range.lowerBound) * unit()
    }

    /// Uniform integer in `range`.
    public mutating func int(_ range: ClosedRange<Int>) -> Int {
        range.lowerBound + Int(next() % UInt64(range.upperBound - range.lowerBound + 1))
    }

    /// Standard normal (Box–Muller).
    public mutating func gaussian() -> Double {
        let u1 = max(unit(), 1e-300), u2 = unit()
        return (-2 * log(u1)).squareRoot() * cos(2 * .pi * u2)
    }

    public mutating func chance(_ p: Double) -> Bool { unit() < p }

    public mutating func pick<T>(_ items: [T]) -> T { items[int(0...(items.count - 1))] }
}
