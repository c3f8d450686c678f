import Foundation

/// The standard Prometheus process metrics, read from `/proc` when `/metrics` is asked
/// for: resident memory, CPU seconds, open descriptors and the start time.
struct ProcessMetrics {
    var residentBytes: Int?
    var cpuSeconds: Double?
    var openDescriptors: Int?
    var maxDescriptors: Int?
    /// Seconds since the Unix epoch.
    var startTimeSeconds: Double?

    static func current() -> ProcessMetrics {
        var m = ProcessMetrics()
        let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))
        m.residentBytes = MemoryUsage.residentBytes()
        // /proc/self/stat: the command name (field 2) may hold spaces; fields after the
        // closing parenthesis are plain. utime, stime are fields 14, 15; starttime is 22.
        if let stat = try? String(contentsOfFile: "/proc/self/stat", encoding: .utf8),
           let close = stat.lastIndex(of: ")") {
            let f = stat[stat.index(after: close)...].split(separator: " ")
            // f[0] is field 3 (state).
            if f.count > 19, let u = Double(f[11]), let s = Double(f[12]), let start = Double(f[19]), ticks > 0 {
                m.cpuSeconds = (u + s) / ticks
                if let boot = bootTime() { m.startTimeSeconds = boot + start / ticks }
            }
        }
        m.openDescriptors = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")).map { $0.count }
        var limit = rlimit()
        if getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 { m.maxDescriptors = Int(clamping: limit.rlim_cur) }
        return m
    }

    private static func bootTime() -> Double? {
        guard let stat = try? String(contentsOfFile: "/proc/stat", encoding: .utf8) else { return nil }
        for line in stat.split(separator: "\n") where line.hasPrefix("btime ") {
            return Double(line.dropFirst(6).trimmingCharacters(in: .whitespaces))
        }
        return nil
    }

    /// The exposition lines (metrics that could not be read are left out).
    var exposition: String {
        var out = ""
        func add(_ name: String, _ type: String, _ help: String, _ value: String?) {
            guard let value else { return }
            out += "# HELP \(name) \(help)\n# TYPE \(name) \(type)\n\(name) \(value)\n"
        }
        add("process_resident_memory_bytes", "gauge", "Resident memory size in bytes.", residentBytes.map(String.init))
        add("process_cpu_seconds_total", "counter", "User and system CPU time in seconds.", cpuSeconds.map { "\($0)" })
        add("process_open_fds", "gauge", "Open file descriptors.", openDescriptors.map(String.init))
        add("process_max_fds", "gauge", "The limit on open file descriptors.", maxDescriptors.map(String.init))
        add("process_start_time_seconds", "gauge", "Start time of the process since the Unix epoch in seconds.",
            startTimeSeconds.map { "\($0)" })
        return out
    }
}
