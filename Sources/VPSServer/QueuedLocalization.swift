import Foundation

/// A localization waiting in the worker queue while its connection's thread waits for the
/// answer.
///
/// Two parties may end it: the worker (its answer) and the waiting connection thread, which
/// gives up at the time budget's deadline. Exactly one wins. A worker that finds the
/// request given up skips it; a worker already running it is stopped by the request's
/// `LocalizationCancellation`, which shares the deadline, and its late answer is dropped.
final class QueuedLocalization: @unchecked Sendable {   // every field below is guarded by `condition`
    private enum Phase {
        case queued
        case running(since: ContinuousClock.Instant)
        case answered(LocalizationAnswer)
        case givenUp
    }

    /// How the wait ended.
    enum Outcome {
        case answered(LocalizationAnswer)
        /// The deadline passed first; `runningSince` is nil when no worker had started it.
        case deadlinePassed(runningSince: ContinuousClock.Instant?)
    }

    let queuedAt = ContinuousClock.now
    private let condition = NSCondition()
    private var phase = Phase.queued

    /// Called by the worker before it starts: false when the request was given up (its
    /// deadline passed while queued), so the work is skipped.
    func begin() -> Bool {
        condition.lock()
        defer { condition.unlock() }
        guard case .queued = phase else { return false }
        phase = .running(since: .now)
        return true
    }

    /// Called by the worker with its answer; dropped when the request was given up.
    func finish(_ answer: LocalizationAnswer) {
        condition.lock()
        defer { condition.unlock() }
        guard case .running = phase else { return }
        phase = .answered(answer)
        condition.signal()
    }

    /// Blocks the connection thread until the worker's answer or `deadline`, whichever
    /// comes first.
    func wait(until deadline: ContinuousClock.Instant) -> Outcome {
        condition.lock()
        defer { condition.unlock() }
        while true {
            if case .answered(let answer) = phase { return .answered(answer) }
            let left = deadline - .now
            if left <= .zero { break }
            _ = condition.wait(until: Date(timeIntervalSinceNow: max(left.seconds, 0.001)))
        }
        let runningSince: ContinuousClock.Instant? = if case .running(let since) = phase { since } else { nil }
        phase = .givenUp
        return .deadlinePassed(runningSince: runningSince)
    }
}

/// A localization's answer and the access log's outcome for it (`localized`, an error code, ...).
struct LocalizationAnswer {
    var response: HTTPResponseMessage
    var outcome: String
    /// The 503 of a localization stopped before its answer (time budget, drain timeout).
    /// Either the worker or the waiting connection thread may make one, and a worker's is
    /// dropped when the connection thread gave up first: it is counted as a failed
    /// localization where it is returned to the client, not where it is made.
    var stopped = false
}
