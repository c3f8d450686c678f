import Foundation
import Synchronization
import Testing
@testable import VPSServer

/// `WorkerPool`'s core bound: a job runs on its caller while a core is free and nothing
/// waits; beyond that it queues, and the workers take it only once a core is free again,
/// whoever held it.
@Suite struct CoreBoundPoolTests {
    @Test func aJobRunsOnItsCallerWhileACoreIsFree() {
        let pool = WorkerPool(threads: 2, queueCapacity: 4, name: "test-pool")
        defer { pool.shutdown() }
        let caller = Thread.current
        var ranOnCaller = false
        #expect(pool.runOnCallerIfCoreFree { ranOnCaller = Thread.current == caller })
        #expect(ranOnCaller)
        #expect(pool.load.running == 0)
    }

    @Test func withEveryCoreTakenJobsQueueAndRunOnlyWhenOneIsFree() async throws {
        let pool = WorkerPool(threads: 1, queueCapacity: 4, name: "test-pool")
        defer { pool.shutdown() }
        let release = DispatchSemaphore(value: 0), entered = DispatchSemaphore(value: 0)
        let queuedRan = Atomic<Bool>(false)
        // The only core, taken by a caller's own job.
        let holder = Thread {
            _ = pool.runOnCallerIfCoreFree { entered.signal(); release.wait() }
        }
        holder.start()
        #expect(entered.wait(timeout: .now() + 60) == .success)
        // No core free: a second caller is refused, and a submitted job waits.
        #expect(!pool.runOnCallerIfCoreFree { Issue.record("ran with every core taken") })
        let done = DispatchSemaphore(value: 0)
        #expect(pool.trySubmit { queuedRan.store(true, ordering: .relaxed); done.signal() })
        #expect(done.wait(timeout: .now() + 0.3) == .timedOut)
        let ranEarly = queuedRan.load(ordering: .relaxed)
        #expect(!ranEarly)
        let load = pool.load
        #expect(load.running == 1 && load.queued == 1)
        // A caller does not jump the queue either.
        #expect(!pool.runOnCallerIfCoreFree { Issue.record("jumped the queue") })
        // The caller's core frees: the queued job runs on a worker.
        release.signal()
        #expect(done.wait(timeout: .now() + 60) == .success)
        let ran = queuedRan.load(ordering: .relaxed)
        #expect(ran)
    }
}
