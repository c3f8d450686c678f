import GraffityARCloud
import Support
import VPSModel
import Testing

/// A backend failing with the given errors first, then answering; it notes the virtual
/// time of every attempt so the delays between them can be checked.
final class FlakyBackend: VPSBackend {
    private let failures: Locked<[VPSBackendError]>
    private let times = Locked<[Duration]>([])
    let clock: VirtualClock

    init(failures: [VPSBackendError], clock: VirtualClock) {
        self.failures = Locked(failures); self.clock = clock
    }

    var attemptTimes: [Duration] { times.withLock { $0 } }

    func localize(_ request: LocalizationRequest) async throws -> LocalizationResponse {
        let now = clock.now.offset
        times.withLock { $0.append(now) }
        if let failure = failures.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) { throw failure }
        return Fixtures.fix(0)
    }

    func scene(mapId: String) async throws -> SceneContent { SceneContent() }
}

private let request = LocalizationRequest(mapId: "gallery", image: EncodedImage(format: .png, data: .init()),
                                          intrinsics: Fixtures.camera)

@Suite("Retry with backoff")
struct RetryTests {
    @Test("transient failures are invisible while the budget lasts")
    func transientInvisible() async throws {
        let clock = VirtualClock()
        let flaky = FlakyBackend(failures: [.connectionFailed("refused"), .timedOut("3 s"),
                                            .serverError(status: 503, message: "draining")], clock: clock)
        let retrying = RetryingBackend(base: flaky, policy: RetryPolicy(maxAttempts: 5), clock: clock,
                                       jitter: .seeded(1))
        #expect(try await retrying.localize(request) == Fixtures.fix(0))
        #expect(flaky.attemptTimes.count == 4)
    }

    @Test("terminal failures surface at once, without retry or wait",
          arguments: [VPSBackendError.unauthorized("revoked"), .forbidden("no"), .mapNotFound(mapId: "x"),
                      .rejected(status: 400, message: "bad intrinsics")])
    func terminalImmediate(error: VPSBackendError) async throws {
        let clock = VirtualClock()
        let flaky = FlakyBackend(failures: [error], clock: clock)
        let retrying = RetryingBackend(base: flaky, policy: .default, clock: clock, jitter: .seeded(1))
        await #expect(throws: error) { try await retrying.localize(request) }
        #expect(flaky.attemptTimes == [.zero])
        #expect(clock.now.offset == .zero)
    }

    @Test("backoff delays stay within their exponential, jittered bounds")
    func jitterBounds() async throws {
        let clock = VirtualClock()
        let failures = Array(repeating: VPSBackendError.connectionFailed("reset"), count: 7)
        let flaky = FlakyBackend(failures: failures, clock: clock)
        let policy = RetryPolicy(maxAttempts: 8, initialBackoff: .milliseconds(100), multiplier: 2,
                                 maxBackoff: .seconds(1), budget: .seconds(60))
        let retrying = RetryingBackend(base: flaky, policy: policy, clock: clock, jitter: .seeded(42))
        _ = try await retrying.localize(request)

        let times = flaky.attemptTimes
        #expect(times.count == 8)
        let delays = zip(times, times.dropFirst()).map { $1 - $0 }
        for (i, delay) in delays.enumerated() {
            #expect(delay >= .zero)
            #expect(delay <= policy.backoffCeiling(beforeRetry: i + 1))
        }
        // Ceilings double from 0.1 s and are capped at 1 s.
        #expect((1...6).map { policy.backoffCeiling(beforeRetry: $0) }
                == [.milliseconds(100), .milliseconds(200), .milliseconds(400), .milliseconds(800), .seconds(1), .seconds(1)])
        // Full jitter: the delays are not all at their ceiling, nor all equal.
        #expect(Set(delays).count > 1)
        #expect(delays.enumerated().contains { $1 < policy.backoffCeiling(beforeRetry: $0 + 1) })
    }

    @Test("the same seed gives the same delays; the jitter values are uniform in 0..<1")
    func seededJitter() {
        let a = JitterSource.seeded(9), b = JitterSource.seeded(9), c = JitterSource.seeded(10)
        let xs = (0..<1000).map { _ in a.nextUnit() }
        #expect(xs == (0..<1000).map { _ in b.nextUnit() })
        #expect(xs != (0..<1000).map { _ in c.nextUnit() })
        #expect(xs.allSatisfy { $0 >= 0 && $0 < 1 })
        let mean = xs.reduce(0, +) / Double(xs.count)
        #expect(abs(mean - 0.5) < 0.05)
    }

    @Test("when the budget is spent the failure surfaces, without waiting past the budget")
    func budgetSpent() async throws {
        let clock = VirtualClock()
        let failures = Array(repeating: VPSBackendError.serverError(status: 503, message: "busy"), count: 100)
        let flaky = FlakyBackend(failures: failures, clock: clock)
        let policy = RetryPolicy(maxAttempts: 100, initialBackoff: .milliseconds(500), multiplier: 2,
                                 maxBackoff: .seconds(4), budget: .seconds(10))
        let retrying = RetryingBackend(base: flaky, policy: policy, clock: clock, jitter: .seeded(3))
        do {
            _ = try await retrying.localize(request)
            Issue.record("expected the retries to give up")
        } catch let VPSBackendError.retriesExhausted(attempts, last) {
            #expect(attempts == flaky.attemptTimes.count)
            #expect(attempts > 1 && attempts < 100)
            #expect(last == .serverError(status: 503, message: "busy"))
        }
        #expect(clock.now.offset <= policy.budget)
    }

    @Test("the attempt limit holds even with budget to spare")
    func attemptLimit() async throws {
        let clock = VirtualClock()
        let flaky = FlakyBackend(failures: Array(repeating: .timedOut("slow"), count: 10), clock: clock)
        let retrying = RetryingBackend(base: flaky, policy: RetryPolicy(maxAttempts: 3, budget: .seconds(3600)),
                                       clock: clock, jitter: .seeded(5))
        await #expect(throws: VPSBackendError.retriesExhausted(attempts: 3, lastError: .timedOut("slow"))) {
            try await retrying.localize(request)
        }
        #expect(flaky.attemptTimes.count == 3)
    }

    @Test("cancellation stops the retries")
    func cancellation() async throws {
        let clock = VirtualClock()
        let flaky = FlakyBackend(failures: Array(repeating: .connectionFailed("refused"), count: 10), clock: clock)
        let retrying = RetryingBackend(base: flaky, policy: RetryPolicy(maxAttempts: 10), clock: clock)
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await retrying.localize(request)
        }
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(flaky.attemptTimes.isEmpty)
    }

    @MainActor
    @Test("in a session, transient failures within the budget leave no trace in the state")
    func sessionTransientInvisible() async throws {
        let backend = ScriptedBackend([.fail(.connectionFailed("reset by peer")), .fail(.timedOut("3 s")),
                                       .fix(0)])
        let (sdk, host) = try Fixtures.make(backend, retry: RetryPolicy(maxAttempts: 4))
        let received = Received()
        let subscription = sdk.subscribe { received.states.append($0) }
        try await host.loadView()
        try await host.advance(by: .zero)
        #expect(backend.requestCount == 3)
        #expect(received.states.map(\.vpsState) == [.notStarted, .initializing, .localizing, .localized(sectionId: "hall")])
        #expect(received.states.allSatisfy { $0.lastError == nil })
        subscription.cancel()
    }

    @MainActor
    @Test("in a session, a spent budget surfaces as backendUnavailable")
    func sessionBudgetSpent() async throws {
        let backend = ScriptedBackend(fallback: .fail(.serverError(status: 503, message: "overloaded")))
        let (sdk, host) = try Fixtures.make(backend, retry: RetryPolicy(maxAttempts: 3))
        try await host.loadView()
        try await host.advance(by: .zero)
        #expect(backend.requestCount == 3)
        Fixtures.expectBackendUnavailable(sdk, mentioning: "503")
    }
}
