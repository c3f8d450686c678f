/// One piece of backend work the host waits on: a task whose outcome is delivered once,
/// on the main actor, unless the host abandons it first.
///
/// Abandoning cancels the task and releases everyone waiting at once, without waiting for
/// the backend to notice the cancellation; an outcome that still arrives is dropped. This
/// is how `reset()` and `shutdown()` stop a request in flight without hanging on it.
@MainActor
final class PendingOperation<Value: Sendable> {
    private var task: Task<Void, Never>?
    private var isSettled = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    /// Starts `work` off the main actor; `completion` runs on the main actor with its
    /// outcome unless the operation was abandoned first.
    init(_ work: @escaping @Sendable () async throws -> Value,
         completion: @escaping @MainActor (Result<Value, any Error>) -> Void) {
        task = Task { [weak self] in
            let outcome: Result<Value, any Error>
            do { outcome = .success(try await work()) } catch { outcome = .failure(error) }
            guard let self, !self.isSettled else { return }
            self.settle()
            completion(outcome)
        }
    }

    /// Cancels the work and releases the waiters; the outcome will be ignored.
    func abandon() {
        guard !isSettled else { return }
        task?.cancel()
        settle()
    }

    /// Returns once the outcome has been delivered or the operation abandoned.
    func settled() async {
        if isSettled { return }
        await withCheckedContinuation { waiters.append($0) }
    }

    private func settle() {
        isSettled = true
        let pending = waiters
        waiters.removeAll()
        for waiter in pending { waiter.resume() }
    }
}
