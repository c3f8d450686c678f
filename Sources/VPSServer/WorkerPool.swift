import Foundation
import Vision
import Support

/// At most `threadCount` jobs at once (one per core): run by the caller while a core is
/// free, else queued in a bounded FIFO for a fixed set of worker threads.
///
/// A caller with a core free runs its job itself (`runOnCallerIfCoreFree`): handing it to
/// a worker and waiting for the answer costs two thread wake-ups per job, and on a loaded
/// machine each wake-up waits for a CPU (measured: 0.8–0.9 of the in-process rate at
/// concurrency = cores, against 0.94–0.96 run on the caller). Once every core is taken,
/// jobs queue and the workers run them back to back, which needs no wake-up at all while
/// the queue is not empty. The queue is bounded: `trySubmit` refuses instead of letting work
/// pile up, and the server turns the refusal into `503` with `Retry-After`.
final class WorkerPool: @unchecked Sendable {
    /// One unit of work; runs once on some worker thread.
    typealias Job = @Sendable () -> Void

    let threadCount: Int
    let queueCapacity: Int
    /// Lent to the jobs' localizations while a core is free of jobs.
    let helpers: IdleCoreHelpers?
    // NSCondition guards every field below (the queue, busy, stopping).
    private let condition = NSCondition()
    /// Jobs in order; a taken job's slot is emptied at once. A slot kept until the next
    /// compaction held the finished job's captures (the request, its image, the server's
    /// handler) for up to 64 more jobs, and after shutdown for good: the handler owns
    /// this pool, so a stopped server was never freed (LeakSanitizer, docs/hardening.md).
    private var queue: [Job?] = []
    private var head = 0
    private var busy = 0
    private var stopping = false

    /// Starts `threads` worker threads named `<name>-<i>`; every job, on a worker or a
    /// caller, may hand parts of its work to `helpers` (kept alive by the pool).
    init(threads: Int, queueCapacity: Int, name: String, helpers: IdleCoreHelpers? = nil) {
        threadCount = max(1, threads)
        self.queueCapacity = max(0, queueCapacity)
        self.helpers = helpers
        for i in 0..<threadCount {
            WorkerThreads.start(name: "\(name)-\(i)") { [self] in runWorker() }
        }
    }

    /// Queues `job` unless `threadCount` jobs are running and `queueCapacity` wait already
    /// (or the pool is shut down). Never blocks. Jobs run on the caller count as running.
    func trySubmit(_ job: @escaping Job) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        guard !stopping else { return false }
        let waiting = queue.count - head
        // Idle workers take jobs at once (jobs handed to them but not yet picked up count
        // as waiting); beyond them, `queueCapacity` jobs may wait.
        guard waiting < queueCapacity + max(0, threadCount - busy) else { return false }
        queue.append(job)
        condition.signal()
        return true
    }

    /// Runs `job` on the calling thread when fewer than `threadCount` jobs run and none
    /// waits (a waiting job keeps its turn); returns false without running it otherwise.
    func runOnCallerIfCoreFree(_ job: () -> Void) -> Bool {
        condition.lock()
        guard !stopping, busy < threadCount, head == queue.count else {
            condition.unlock()
            return false
        }
        busy += 1
        condition.unlock()
        run(job)
        condition.lock()
        busy -= 1
        if head < queue.count { condition.signal() }       // a job queued meanwhile gets the core
        condition.unlock()
        return true
    }

    /// Jobs running and jobs waiting, read together.
    var load: (running: Int, queued: Int) {
        condition.lock()
        defer { condition.unlock() }
        return (busy, queue.count - head)
    }

    /// Lets the threads exit once the queue is empty; later submissions are refused.
    func shutdown() {
        condition.lock()
        stopping = true
        condition.broadcast()
        condition.unlock()
    }

    /// Runs one job on the calling thread, with the helpers when there are any.
    private func run(_ job: () -> Void) {
        if let helpers { helpers.running(job) } else { job() }
    }

    private func runWorker() {
        while true {
            condition.lock()
            // A core taken by a caller's own job is taken: wait for it too.
            while (head == queue.count || busy >= threadCount) && !stopping { condition.wait() }
            if head == queue.count {          // stopping and nothing left
                condition.unlock()
                return
            }
            guard let job = queue[head] else { preconditionFailure("a queued job was taken twice") }
            queue[head] = nil
            head += 1
            if head > 64 && head * 2 > queue.count {      // compact now and then, not per job
                queue.removeFirst(head)
                head = 0
            }
            busy += 1
            condition.unlock()
            run(job)
            condition.lock()
            busy -= 1
            condition.unlock()
        }
    }
}
