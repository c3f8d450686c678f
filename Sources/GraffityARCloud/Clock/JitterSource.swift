import Support

/// Where retry jitter comes from: uniform numbers in `0..<1`.
///
/// `.system` for production; `.seeded(_:)` for a reproducible sequence (tests, and
/// simulations that must replay the same way every run).
public struct JitterSource: Sendable {
    private let next: @Sendable () -> Double

    /// A source drawing from `next`, which must return values in `0..<1`.
    public init(_ next: @escaping @Sendable () -> Double) { self.next = next }

    /// The next uniform value in `0..<1`.
    public func nextUnit() -> Double { next() }

    /// The system's random number generator.
    public static var system: JitterSource {
        JitterSource { Double.random(in: 0..<1) }
    }

    /// A deterministic sequence from `seed` (SplitMix64).
    public static func seeded(_ seed: UInt64) -> JitterSource {
        let state = Locked(seed)
        return JitterSource {
            let bits = state.withLock { s -> UInt64 in
                s &+= 0x9E37_79B9_7F4A_7C15
                var z = s
                z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
                z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
                return z ^ (z >> 31)
            }
            return Double(bits >> 11) * 0x1.0p-53  // 53 random mantissa bits
        }
    }
}
