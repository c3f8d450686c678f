import Foundation

// Blocking work in these tests runs on threads of their own, never on the Swift concurrency
// pool: on a 2-core machine the pool has two threads, shared by every suite running at once,
// and long synchronous suites can hold both for minutes.

/// Runs blocking `work` on a thread of its own and returns its result. Not on Dispatch:
/// with many tests blocking at once its pool runs dry and work waits there for tens of
/// seconds, which timing assertions would blame on the server.
package func offThread<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { cont in Thread { cont.resume(returning: work()) }.start() }
}

/// Blocking `work` started on a thread of its own at once — not when the concurrency pool
/// next has a free thread, as `async let` or `Task {}` would, which under load was after a
/// test's own deadline. `value` awaits the result without holding a pool thread.
package final class ThreadTask<T: Sendable>: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private var result: T?

    package init(_ work: @escaping @Sendable () -> T) {
        Thread { [self] in
            result = work()
            done.signal()
        }.start()
    }

    package var value: T {
        get async {
            await offThread { [self] in
                done.wait()
                done.signal()       // a later `value` returns too
                return result!
            }
        }
    }
}
