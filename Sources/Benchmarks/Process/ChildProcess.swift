import Foundation

/// Runs this `arcloud` executable again as a child process and reports what the kernel
/// measured of it alone (`wait4`): its peak resident memory and CPU time. A benchmark
/// stage run this way is measured without the memory the parent (or an earlier stage)
/// still holds.
package struct ChildProcess {
    /// How one run ended and what it used.
    package struct Run: Sendable, Codable {
        /// Exit status, or nil when a signal ended it (`signal` says which).
        package var exitStatus: Int32?
        package var signal: Int32?
        package var wallSeconds: Double
        package var cpuSeconds: Double
        /// Peak resident set size (`ru_maxrss`), bytes.
        package var peakResidentBytes: Int

        package var succeeded: Bool { exitStatus == 0 }

        package var failure: String? {
            if let s = signal { return "killed by signal \(s)" }
            if let e = exitStatus, e != 0 { return "exit status \(e)" }
            return nil
        }
    }

    /// The running executable (`/proc/self/exe`).
    package static func executable() throws -> String {
        var buffer = [CChar](repeating: 0, count: 4096)
        let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard n > 0 else { throw BenchmarkFailure("cannot find this executable (/proc/self/exe)") }
        return String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Runs `arcloud arguments…` with stdout and stderr appended to `log`, and waits.
    package static func run(_ arguments: [String], log: URL) throws -> Run {
        let path = try executable()
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, log.path, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        let argv: [UnsafeMutablePointer<CChar>?] = ([path] + arguments).map { strdup($0) } + [nil]
        defer { for a in argv { free(a) } }
        var pid: pid_t = 0
        let start = DispatchTime.now().uptimeNanoseconds
        let spawned = posix_spawn(&pid, path, &actions, nil, argv, environ)
        guard spawned == 0 else { throw BenchmarkFailure("cannot start \(path): \(String(cString: strerror(spawned)))") }
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 {
            guard errno == EINTR else { throw BenchmarkFailure("waiting for \(path): \(String(cString: strerror(errno)))") }
        }
        let wall = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        func seconds(_ t: timeval) -> Double { Double(t.tv_sec) + Double(t.tv_usec) * 1e-6 }
        // The wait status as <sys/wait.h> lays it out (its macros do not import).
        let signalled = status & 0x7f
        return Run(exitStatus: signalled == 0 ? (status >> 8) & 0xff : nil, signal: signalled == 0 ? nil : signalled,
                   wallSeconds: wall, cpuSeconds: seconds(usage.ru_utime) + seconds(usage.ru_stime),
                   peakResidentBytes: usage.ru_maxrss * 1024)
    }
}
