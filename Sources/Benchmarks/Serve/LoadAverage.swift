import Foundation

/// The 1, 5 and 15 minute load averages (`/proc/loadavg`), printed with every figure of
/// `bench serve`.
public enum LoadAverage {
    /// The three averages; empty where /proc/loadavg cannot be read.
    public static func read() -> [Double] {
        guard let s = try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8) else { return [] }
        return s.split(separator: " ").prefix(3).compactMap { Double($0) }
    }
}
