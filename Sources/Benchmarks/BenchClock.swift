import Foundation

/// The clock `bench pose` and `bench features` time with: elapsed time, or CPU time of the
/// whole process (every thread, so OpenCV's worker threads count), which a busy machine
/// disturbs less.
public struct BenchClock: Sendable {
    /// `wall` or `CPU`: how the benchmarks' headings and notes name it.
    public let name: String
    private let id: clockid_t

    /// Elapsed time (CLOCK_MONOTONIC).
    public static let wall = BenchClock(name: "wall", id: CLOCK_MONOTONIC)
    /// CPU time of the process, all threads (CLOCK_PROCESS_CPUTIME_ID).
    public static let cpu = BenchClock(name: "CPU", id: CLOCK_PROCESS_CPUTIME_ID)

    /// Milliseconds since an arbitrary origin; only differences mean anything.
    public func nowMs() -> Double {
        var ts = timespec()
        clock_gettime(id, &ts)
        return Double(ts.tv_sec) * 1e3 + Double(ts.tv_nsec) * 1e-6
    }
}
