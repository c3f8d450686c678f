import CMicroHTTPD
import Locking

/// A request whose connection libmicrohttpd has suspended while a worker computes its answer.
///
/// Three parties may answer it: the worker (the localization's result), the time budget
/// (too long in the queue or running) and shutdown (the drain timeout passed). Exactly one
/// wins; the winner stores the answer in the request state and resumes the connection, and
/// libmicrohttpd then calls the access handler again, which queues that answer.
final class SuspendedRequest: @unchecked Sendable {   // the connection pointer is only resumed, once, under `phase`
    enum Phase: Equatable {
        case queued
        case running(since: ContinuousClock.Instant)
        case answered
    }

    /// The `MHD_Connection *`, suspended until `deliver` resumes it.
    private let connection: OpaquePointer
    let state: RequestState
    let suspendedAt: ContinuousClock.Instant
    /// The localization must be answered by then (queue wait included).
    let deadline: ContinuousClock.Instant
    private let phase = Locked<Phase>(.queued)

    init(connection: OpaquePointer, state: RequestState, budget: Duration) {
        self.connection = connection
        self.state = state
        suspendedAt = .now
        deadline = suspendedAt + budget
    }

    /// Called by the worker before it starts: false when the request was answered meanwhile
    /// (budget or shutdown), so the work is skipped.
    func begin() -> Bool {
        phase.withLock { p in
            guard p == .queued else { return false }
            p = .running(since: .now)
            return true
        }
    }

    /// When the worker began, nil while queued or once answered.
    var runningSince: ContinuousClock.Instant? {
        phase.withLock { if case .running(let since) = $0 { return since } else { return nil } }
    }

    /// Marks the request answered; true for the one caller that gets to answer it.
    fileprivate func claim() -> Bool {
        phase.withLock { p in
            guard p != .answered else { return false }
            p = .answered
            return true
        }
    }

    /// Hands the answer to the connection thread and wakes it. Only after a won `claim()`.
    fileprivate func deliver(_ answer: DeferredAnswer) {
        // The connection thread reads `state` again only after the resume below, which
        // synchronises through libmicrohttpd's lock.
        state.deferredAnswer = answer
        MHD_resume_connection(connection)
    }
}

/// The answer computed off the connection thread, queued by the access handler on resume.
struct DeferredAnswer {
    var response: HTTPResponseMessage
    /// The access log's outcome (`localized`, an error code, ...).
    var outcome: String
}

/// The suspended requests of one server: to answer them, find those over their time budget,
/// and answer every one before the daemon stops (libmicrohttpd must not be stopped while a
/// connection is suspended).
final class SuspendedRequests: Sendable {
    private struct State {
        var open = true
        var requests: [ObjectIdentifier: SuspendedRequest] = [:]
    }
    private let state = Locked(State())

    /// Registers a request about to be suspended; false once `closeAndTakeAll` ran (the
    /// daemon is stopping: answer inline instead of suspending).
    func insert(_ r: SuspendedRequest) -> Bool {
        state.withLock { s in
            guard s.open else { return false }
            s.requests[ObjectIdentifier(r)] = r
            return true
        }
    }

    /// Answers `r` unless someone else already did; true when this call answered it.
    @discardableResult
    func answer(_ r: SuspendedRequest, with answer: DeferredAnswer) -> Bool {
        guard r.claim() else { return false }
        r.deliver(answer)
        // Removed only once resumed: `count` reaching 0 means no connection is suspended.
        _ = state.withLock { $0.requests.removeValue(forKey: ObjectIdentifier(r)) }
        return true
    }

    /// Requests past their deadline at `now`.
    func overdue(at now: ContinuousClock.Instant) -> [SuspendedRequest] {
        state.withLock { $0.requests.values.filter { $0.deadline <= now } }
    }

    /// Requests suspended and not yet resumed.
    var count: Int { state.withLock { $0.requests.count } }

    /// Refuses later inserts and returns every request still waiting for its answer.
    func closeAndTakeAll() -> [SuspendedRequest] {
        state.withLock { s in
            s.open = false
            return Array(s.requests.values)
        }
    }

    /// Accepts inserts again (a server restarted after `stop()`).
    func reopen() {
        state.withLock { $0.open = true }
    }
}
