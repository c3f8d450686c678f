import Dispatch
import Foundation

/// Runs work on threads of its own and waits for them all.
public enum ThreadGroup {
    /// Runs `body(0..<count)` on `count` threads at once and waits for all of them. Own
    /// threads rather than `concurrentPerform`, which runs no more at once than there are
    /// cores (a worker waiting on the network must not hold back the others), and rather
    /// than the Swift concurrency pool, which blocking work must not hold.
    public static func run(count: Int, _ body: @escaping @Sendable (Int) -> Void) {
        let group = DispatchGroup()
        for w in 0..<count {
            group.enter()
            let thread = Thread {
                body(w)
                group.leave()
            }
            thread.stackSize = 8 << 20   // the localizer's recursion and buffers
            thread.start()
        }
        group.wait()
    }
}
