import Support
/// How long to keep trying a backend that fails transiently: exponential backoff with
/// full jitter, bounded by a number of attempts and by a total time budget.
///
/// The delay before retry `n` (1 for the first retry) is drawn uniformly from
/// `0...min(maxBackoff, initialBackoff * multiplier^(n-1))` ("full jitter": clients that
/// failed together do not retry together). A retry is not started when the attempts are
/// used up or when waiting for it would end past `budget`, measured from the start of the
/// first attempt; the failure then surfaces as `VPSBackendError.retriesExhausted`.
/// Terminal failures are never retried.
public struct RetryPolicy: Sendable, Hashable {
    /// Attempts in all, the first included (1 = no retries).
    public var maxAttempts: Int
    /// Upper bound of the delay before the first retry.
    public var initialBackoff: Duration
    /// Growth of the upper bound per retry.
    public var multiplier: Double
    /// Cap on the upper bound.
    public var maxBackoff: Duration
    /// Total time from the first attempt within which every retry must start.
    public var budget: Duration

    /// A policy; the defaults allow 6 attempts from 200 ms, doubling, within the budget.
    public init(maxAttempts: Int = 6, initialBackoff: Duration = .milliseconds(200), multiplier: Double = 2,
                maxBackoff: Duration = .seconds(5), budget: Duration = .seconds(20)) {
        self.maxAttempts = max(1, maxAttempts)
        self.initialBackoff = max(.zero, initialBackoff)
        self.multiplier = max(1, multiplier)
        self.maxBackoff = max(.zero, maxBackoff)
        self.budget = max(.zero, budget)
    }

    /// Six attempts, 0.2 s doubling up to 5 s, within 20 s.
    public static let `default` = RetryPolicy()

    /// One attempt: every failure surfaces at once.
    public static let never = RetryPolicy(maxAttempts: 1)

    /// The largest delay that jitter may pick before retry `retry` (1-based).
    public func backoffCeiling(beforeRetry retry: Int) -> Duration {
        let grown = initialBackoff.seconds * pow(multiplier, Double(max(0, retry - 1)))
        return .seconds(min(maxBackoff.seconds, grown))
    }

    /// The delay before retry `retry` for a jitter value `unit` in `0..<1`.
    public func backoff(beforeRetry retry: Int, unit: Double) -> Duration {
        .seconds(backoffCeiling(beforeRetry: retry).seconds * min(max(unit, 0), 1))
    }
}

private func pow(_ base: Double, _ exponent: Double) -> Double {
    // Integral exponents only (retry counts); avoids pulling in Foundation for one call.
    var result = 1.0
    var n = Int(exponent)
    while n > 0 { result *= base; n -= 1 }
    return result
}
