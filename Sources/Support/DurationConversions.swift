extension Duration {
    /// The duration in seconds, as a floating-point number.
    public var seconds: Double {
        let (s, atto) = components
        return Double(s) + Double(atto) * 1e-18
    }

    /// The duration in milliseconds, as a floating-point number.
    public var milliseconds: Double {
        let (s, atto) = components
        return Double(s) * 1000 + Double(atto) * 1e-15
    }

    /// Whole milliseconds, the fraction dropped (for C APIs that take an integer).
    public var wholeMilliseconds: Int64 {
        let (s, atto) = components
        return s * 1000 + atto / 1_000_000_000_000_000
    }

    /// Whole microseconds, the fraction dropped (for C APIs that take an integer).
    public var wholeMicroseconds: Int64 {
        let (s, atto) = components
        return s * 1_000_000 + atto / 1_000_000_000_000
    }

    /// The duration rounded to the nearest microsecond.
    public var roundedToMicroseconds: Duration {
        let (s, atto) = components
        let micro = (Double(atto) / 1e12).rounded()
        return .seconds(s) + .microseconds(Int64(micro))
    }
}
