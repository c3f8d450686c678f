import Foundation

/// Milliseconds between laps, on the monotonic clock.
public struct Stopwatch: Sendable {
    private var last = DispatchTime.now().uptimeNanoseconds

    public init() {}

    /// Milliseconds since the previous lap (or creation), and starts the next lap.
    public mutating func lap() -> Double {
        let now = DispatchTime.now().uptimeNanoseconds
        defer { last = now }
        return Double(now - last) / 1e6
    }
}
