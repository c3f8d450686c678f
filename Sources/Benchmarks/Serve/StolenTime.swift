import Foundation

/// The share of the machine's CPU time its hypervisor gave to others (`steal` in
/// `/proc/stat`): on a virtual machine, time the benchmark's threads were ready to run but
/// not running, which no software inside the machine can win back.
package struct StolenTime {
    private let steal: Double
    private let total: Double

    /// Now, or nil where `/proc/stat` cannot be read.
    package static func now() -> StolenTime? {
        guard let text = try? String(contentsOfFile: "/proc/stat", encoding: .utf8),
              let line = text.split(separator: "\n").first(where: { $0.hasPrefix("cpu ") }) else { return nil }
        // cpu user nice system idle iowait irq softirq steal guest guest_nice (guest time is
        // already counted in user).
        let ticks = line.split(separator: " ").dropFirst().prefix(8).compactMap { Double($0) }
        guard ticks.count == 8 else { return nil }
        return StolenTime(steal: ticks[7], total: ticks.reduce(0, +))
    }

    /// Runs `body`, with the percent of CPU time stolen meanwhile (nil where `/proc/stat`
    /// cannot be read).
    package static func during<T>(_ body: () throws -> T) rethrows -> (result: T, stolenPercent: Double?) {
        let before = now()
        let result = try body()
        return (result, before.flatMap { b in now().map { $0.percent(since: b) } })
    }

    /// Percent of all CPU time between `earlier` and this one that was stolen.
    package func percent(since earlier: StolenTime) -> Double {
        let t = total - earlier.total
        return t > 0 ? (steal - earlier.steal) / t * 100 : 0
    }
}
