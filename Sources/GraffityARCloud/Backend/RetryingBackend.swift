import VPSModel

/// A `VPSBackend` that retries the transient failures of another one under a
/// `RetryPolicy`: callers see either an answer, a terminal failure (at once), or
/// `.retriesExhausted` once the policy gives up.
///
/// The clock measures the budget and performs the backoff waits; the jitter source picks
/// each delay. Injecting a `VirtualClock` and `.seeded(_:)` jitter makes the whole
/// sequence of attempts deterministic. Cancellation stops the retries at once.
public struct RetryingBackend<C: Clock<Duration>>: VPSBackend {
    /// The backend whose transient failures are retried.
    public let base: any VPSBackend
    /// How many attempts, how long between them, and the overall budget.
    public let policy: RetryPolicy
    /// The clock backoff waits on (a `VirtualClock` in virtual-clock sessions).
    public let clock: C
    /// Where the full-jitter fractions come from.
    public let jitter: JitterSource

    /// Wraps `base` so that its transient failures are retried under `policy`.
    public init(base: any VPSBackend, policy: RetryPolicy, clock: C, jitter: JitterSource = .system) {
        self.base = base; self.policy = policy; self.clock = clock; self.jitter = jitter
    }

    /// `base.localize`, retried while its failures are transient and the policy allows.
    public func localize(_ request: LocalizationRequest) async throws -> LocalizationResponse {
        try await retrying { try await base.localize(request) }
    }

    /// `base.scene`, retried while its failures are transient and the policy allows.
    public func scene(mapId: String) async throws -> SceneContent {
        try await retrying { try await base.scene(mapId: mapId) }
    }

    /// Runs `operation` until it succeeds, fails terminally, or the policy gives up.
    public func retrying<T>(_ operation: () async throws -> T) async throws -> T {
        let start = clock.now
        var attempt = 1
        while true {
            try Task.checkCancellation()
            do {
                return try await operation()
            } catch let error as VPSBackendError where error.isTransient {
                if attempt >= policy.maxAttempts {
                    throw VPSBackendError.retriesExhausted(attempts: attempt, lastError: error)
                }
                let delay = policy.backoff(beforeRetry: attempt, unit: jitter.nextUnit())
                if start.duration(to: clock.now) + delay > policy.budget {
                    throw VPSBackendError.retriesExhausted(attempts: attempt, lastError: error)
                }
                try await clock.sleep(until: clock.now.advanced(by: delay), tolerance: nil)
                attempt += 1
            }
        }
    }
}
