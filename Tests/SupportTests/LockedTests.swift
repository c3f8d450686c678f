#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Support
import Synchronization
import Testing

/// `Locked` is the lock every shared mutable state in the project goes through. These tests
/// run on threads of their own (pthreads, not the concurrency pool) so that threads really
/// contend. Under `scripts/sanitize.sh tsan` they are also the check that ThreadSanitizer
/// sees the lock: the contended state is a plain struct (an array and counters) that TSan
/// would report as raced on if it did not see the mutex (as it did with
/// `Synchronization.Mutex`).
@Suite struct LockedTests {
    @Test func threadsContendingForTheLockNeverOverlapAndLoseNoUpdate() {
        struct Tally {
            var count = 0
            var order: [Int] = []
        }
        let tally = Locked(Tally())
        let occupants = Atomic<Int>(0)
        let mostOccupants = Atomic<Int>(0)
        let threads = 8, rounds = 2_000
        runOnThreads(threads) { thread in
            for round in 0 ..< rounds {
                tally.withLock { t in
                    let inside = occupants.wrappingAdd(1, ordering: .relaxed).newValue
                    mostOccupants.max(inside, ordering: .relaxed)
                    t.count += 1
                    t.order.append(thread * rounds + round)
                    if round % 64 == 0 { sched_yield() }   // let the others pile up on the lock
                    occupants.wrappingSubtract(1, ordering: .relaxed)
                }
            }
        }
        let result = tally.withLock { $0 }
        #expect(result.count == threads * rounds)
        #expect(Set(result.order).count == threads * rounds)
        #expect(mostOccupants.load(ordering: .relaxed) == 1)
    }

    @Test func copiesShareOneValue() {
        let original = Locked([String]())
        let copy = original
        copy.withLock { $0.append("from the copy") }
        #expect(original.withLock { $0 } == ["from the copy"])
    }

    @Test func aThrowingBodyLeavesTheValueItChangedAndReleasesTheLock() {
        struct Refused: Error {}
        let value = Locked(1)
        #expect(throws: Refused.self) {
            try value.withLock { (v: inout Int) throws(Refused) in
                v = 2
                throw Refused()
            }
        }
        // Another thread can take the lock: it was released when the body threw.
        let seen = Atomic<Int>(0)
        runOnThreads(1) { _ in seen.store(value.withLock { $0 }, ordering: .relaxed) }
        #expect(seen.load(ordering: .relaxed) == 2)
    }

    @Test func aNonCopyableValueIsDestroyedOnceWhenTheLastCopyGoes() {
        let destroyed = Counter()
        do {
            let handle = Locked(Resource(destroyed: destroyed))
            let copy = handle
            copy.withLock { $0.uses += 1 }
            #expect(handle.withLock { $0.uses } == 1)
            #expect(destroyed.value.load(ordering: .relaxed) == 0)
        }
        #expect(destroyed.value.load(ordering: .relaxed) == 1)
    }
}

private final class Counter: Sendable {
    let value = Atomic<Int>(0)
}

/// Counts its own destruction, as a C handle's owner would destroy the handle.
private struct Resource: ~Copyable {
    let destroyed: Counter
    var uses = 0
    init(destroyed: Counter) { self.destroyed = destroyed }
    deinit { destroyed.value.wrappingAdd(1, ordering: .relaxed) }
}

/// Runs `body(index)` on `count` new pthreads at once and returns when all have finished
/// (`pthread_join`, which ThreadSanitizer also sees).
private func runOnThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
    final class Job { let run: () -> Void; init(_ run: @escaping () -> Void) { self.run = run } }
    var threads: [pthread_t] = []
    for index in 0 ..< count {
        let job = Unmanaged.passRetained(Job { body(index) }).toOpaque()
        var thread = pthread_t()
        let status = pthread_create(&thread, nil, { job in
            let job = Unmanaged<Job>.fromOpaque(job!).takeRetainedValue()
            job.run()
            return nil
        }, job)
        precondition(status == 0, "pthread_create failed: \(status)")
        threads.append(thread)
    }
    for thread in threads { pthread_join(thread, nil) }
}
