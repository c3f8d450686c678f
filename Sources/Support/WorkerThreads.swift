import Foundation
import Synchronization

/// Fork-join work on threads of their own: start them, wait for them all.
///
/// Own threads rather than `DispatchQueue.concurrentPerform`, which runs no more at once
/// than there are cores (a worker waiting on the network must not hold back the others),
/// and rather than the Swift concurrency pool, which blocking work must not hold. The
/// service's request pool (`VPSServer`'s `WorkerPool`) is the other pool: long-lived
/// threads with a bounded queue, for requests that must not wait behind each other.
public enum WorkerThreads {
    /// Stack of every thread started here: the localizer's recursion and buffers.
    public static let stackSize = 8 << 20

    /// Runs `body(0..<count)` on `count` threads at once and waits for all of them; with
    /// `name`, thread `w` is named `<name>-<w>`.
    public static func run(count: Int, name: String? = nil, _ body: @escaping @Sendable (Int) -> Void) {
        let group = DispatchGroup()
        for w in 0..<count {
            group.enter()
            // The thread drops its reference to `body` before it signals: a `Thread` keeps
            // its block until the thread object goes, after `wait()` may have returned, and
            // `map` passes a non-escaping closure here that must not outlive the call.
            let job = Job(body)
            start(name: name.map { "\($0)-\(w)" }) { job.run(w); group.leave() }
        }
        group.wait()
    }

    /// A body that is released as soon as it has run.
    private final class Job: @unchecked Sendable {
        private var body: (@Sendable (Int) -> Void)?
        init(_ body: @escaping @Sendable (Int) -> Void) { self.body = body }
        /// Runs and releases the body; called once, from the job's own thread.
        func run(_ w: Int) {
            body?(w)
            body = nil
        }
    }

    /// `body(&state, i)` for every `i` in `0..<count` on `threads` threads (every core
    /// when 0), results in item order whatever the scheduling; `makeState` runs once per
    /// thread (an ORB extractor, buffers). The first error thrown stops the remaining
    /// items and is rethrown.
    public static func map<State, T: Sendable>(count: Int, threads: Int = 0,
                                               makeState: @Sendable () throws -> State,
                                               _ body: @Sendable (inout State, Int) throws -> T) throws -> [T] {
        guard count > 0 else { return [] }
        let results = Locked<[T?]>(Array(repeating: nil, count: count))
        let next = Atomic<Int>(0)
        let failure = Locked<(any Error)?>(nil)
        let workers = max(1, min(threadCount(threads), count))
        withoutActuallyEscaping(makeState) { makeState in
            withoutActuallyEscaping(body) { body in
                run(count: workers) { _ in
                    do {
                        var state = try makeState()
                        while failure.withLock({ $0 == nil }) {
                            let i = next.add(1, ordering: .relaxed).oldValue
                            if i >= count { break }
                            let r = try body(&state, i)
                            results.withLock { $0[i] = r }
                        }
                    } catch {
                        failure.withLock { if $0 == nil { $0 = error } }
                    }
                }
            }
        }
        if let e = failure.withLock({ $0 }) { throw e }
        return results.withLock { $0.map { $0! } }
    }

    /// `body(item)` for every item on `threads` threads (every core when 0), results in
    /// item order.
    public static func map<Item: Sendable, T: Sendable>(_ items: [Item], threads: Int = 0,
                                                         _ body: @Sendable (Item) throws -> T) throws -> [T] {
        try map(count: items.count, threads: threads, makeState: { () }) { _, i in try body(items[i]) }
    }

    /// Threads to use: `requested`, or every core when it is 0.
    public static func threadCount(_ requested: Int) -> Int {
        requested > 0 ? requested : Cores.available
    }

    /// Starts `body` on a thread of its own, named `name` for `top -H` and `perf` when
    /// given, and returns at once.
    public static func start(name: String? = nil, _ body: @escaping @Sendable () -> Void) {
        let thread = Thread {
            if let name { CurrentThread.setName(name) }   // set from inside: the kernel sees it
            body()
        }
        thread.stackSize = stackSize
        thread.start()
    }
}
