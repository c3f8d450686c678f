import Foundation

/// The calling thread's CPU time and kernel-visible name: benchmarks that share a machine
/// account for where the CPU went, thread by thread (`/proc/self/task`, `top -H`, `perf`).
public enum CurrentThread {
    /// CPU seconds (user and system) the calling thread has used.
    public static func cpuSeconds() -> Double {
        var t = timespec()
        guard clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t) == 0 else { return 0 }
        return Double(t.tv_sec) + Double(t.tv_nsec) * 1e-9
    }

    /// Names the calling thread; the kernel keeps the first 15 bytes. (Through
    /// `/proc/thread-self/comm`: Foundation's `Thread.name` did not reliably reach the kernel,
    /// and `prctl`/`pthread_setname_np` are not visible from Swift here.)
    public static func setName(_ name: String) {
        let fd = open("/proc/thread-self/comm", O_WRONLY)
        guard fd >= 0 else { return }
        defer { close(fd) }
        let bytes = Array(name.utf8.prefix(15))
        _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
    }
}
