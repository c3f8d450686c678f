#if canImport(Glibc)
import Glibc
#endif
import Dispatch
import Locking
import Synchronization

/// Runs independent work items on several threads, each thread with its own scratch
/// state (an ORB extractor, buffers), and returns the results in item order.
enum Parallel {
    /// `body(&state, i)` for every `i` in `0..<count` on `threads` threads; `makeState`
    /// runs once per thread. The first error thrown stops the remaining items and is rethrown.
    static func map<State, T: Sendable>(count: Int, threads: Int, makeState: @Sendable () throws -> State,
                                        _ body: @Sendable (inout State, Int) throws -> T) throws -> [T] {
        guard count > 0 else { return [] }
        let results = Locked<[T?]>(Array(repeating: nil, count: count))
        let next = Atomic<Int>(0)
        let failure = Locked<(any Error)?>(nil)
        let workers = max(1, min(threads, count))
        DispatchQueue.concurrentPerform(iterations: workers) { _ in
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
        if let e = failure.withLock({ $0 }) { throw e }
        return results.withLock { $0.map { $0! } }
    }

    /// Threads to use: `requested`, or every core when it is 0.
    static func threadCount(_ requested: Int) -> Int {
        requested > 0 ? requested : max(1, System.coreCount)
    }
}

enum System {
    static var coreCount: Int {
        #if canImport(Glibc)
        Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))
        #else
        1
        #endif
    }
}
