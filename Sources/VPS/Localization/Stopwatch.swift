import Foundation

/// Milliseconds between laps, on the monotonic clock.
struct Stopwatch {
    private var last = DispatchTime.now().uptimeNanoseconds

    /// Milliseconds since the previous lap (or creation), and starts the next lap.
    mutating func lap() -> Double {
        let now = DispatchTime.now().uptimeNanoseconds
        defer { last = now }
        return Double(now - last) / 1e6
    }
}
