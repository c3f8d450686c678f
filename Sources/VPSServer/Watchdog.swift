import Foundation
import Synchronization
import Support

/// A thread that runs `tick` every `interval` until stopped: the server's connection
/// deadlines (request heads, body rates) are checked here, not on the connection threads,
/// which a deadline exists to protect.
final class Watchdog: Sendable {
    private let stopping = Atomic<Bool>(false)
    private let finished = DispatchSemaphore(value: 0)

    init(every interval: Duration, tick: @escaping @Sendable (ContinuousClock.Instant) -> Void) {
        let micros = UInt32(max(1_000, interval.wholeMicroseconds))
        WorkerThreads.start(name: "arcloud-watchdog") { [self] in
            while !stopping.load(ordering: .relaxed) {
                usleep(micros)
                tick(.now)
            }
            finished.signal()
        }
    }

    /// Stops the thread and waits for its last tick to end.
    func stop() {
        guard !stopping.exchange(true, ordering: .relaxed) else { return }
        finished.wait()
    }
}
