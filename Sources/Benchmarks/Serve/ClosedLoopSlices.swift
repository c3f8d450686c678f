import Foundation
import Support
import Synchronization
import VPSClient

/// Closed-loop HTTP load in short slices, so that `bench serve` can interleave it with
/// in-process runs a fraction of a second apart: on a virtual machine the CPU's speed
/// drifts within a second or so, and a baseline measured seconds away from the
/// run it judges carries that drift into the ratio.
///
/// The connections stay open across slices. In each slice every connection sends requests
/// back to back; the timed window runs from the `concurrency`-th answer (every connection
/// has had one, the server's queue is in its steady state) to the answer that completes
/// the window's count, and connections still waiting then finish outside it. Neither the
/// start of a slice (threads waking) nor its end (the queue draining, cores idling) is in
/// the window.
package final class ClosedLoopSlices: @unchecked Sendable {   // used from one thread; each slice's client threads join before it returns
    package let concurrency: Int
    private let connections: [VPSLoadConnection]
    private let frameCount: Int
    /// The next frame to send, shared by the connections and kept across slices.
    private let nextFrame = Atomic<Int>(0)
    /// Everything answered over the slices so far (timed or not).
    private(set) var totals = LoadTally()
    /// Timed requests and seconds of all windows so far.
    private(set) var timedRequests = 0
    private(set) var timedSeconds = 0.0

    /// Opens `concurrency` connections, each warmed up with one untimed request.
    package init(baseURL: String, token: String, frames: [VPSLoadGenerator.Frame], concurrency: Int) throws {
        self.concurrency = max(1, concurrency)
        frameCount = frames.count
        connections = try (0..<self.concurrency).map { w in
            let c = try VPSLoadConnection(baseURL: baseURL, token: token, frames: frames)
            if let failure = c.localize(frame: w % frames.count).failure {
                throw BenchmarkFailure("warm-up request failed: \(failure)")
            }
            return c
        }
    }

    /// Runs one slice whose window holds `timed` answers; returns the window's seconds.
    @discardableResult
    package func slice(timed: Int) -> Double {
        let start = concurrency, end = concurrency + max(1, timed)
        let answered = Atomic<Int>(0)
        let window = Locked<(start: ContinuousClock.Instant?, end: ContinuousClock.Instant?)>((nil, nil))
        let parts = Locked<[LoadTally]>([])
        let clock = ContinuousClock()
        WorkerThreads.run(count: concurrency, name: "load-client") { [self] w in
            let c = connections[w]
            var tally = LoadTally()
            let cpu0 = CurrentThread.cpuSeconds()
            while answered.load(ordering: .relaxed) < end {
                let frame = nextFrame.wrappingAdd(1, ordering: .relaxed).oldValue % frameCount
                let t0 = clock.now
                let r = c.localize(frame: frame)
                let now = clock.now
                let n = answered.wrappingAdd(1, ordering: .relaxed).newValue
                if n == start { window.withLock { $0.start = now } }
                if n == end { window.withLock { $0.end = now } }
                tally.record(r, latencyMs: (now - t0).seconds * 1000)
            }
            tally.clientCPUSeconds = CurrentThread.cpuSeconds() - cpu0
            parts.withLock { $0.append(tally) }
        }
        for p in parts.withLock({ $0 }) { totals.merge(p) }
        let (s, e) = window.withLock { $0 }
        let seconds = s.flatMap { s in e.map { ($0 - s).seconds } } ?? 0
        timedRequests += end - start
        timedSeconds += seconds
        return seconds
    }
}
