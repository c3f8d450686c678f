import Foundation

/// CPU time of each of this process's threads at one moment, from `/proc/self/task`
/// (`schedstat`: nanoseconds on a CPU; `comm`: the thread's name). The difference of two
/// snapshots says which threads used the CPU in between: `bench serve` splits a run's CPU
/// into localization workers, libmicrohttpd's connection threads and the rest.
package struct ThreadCPUSnapshot {
    package struct Thread { var name: String; var seconds: Double }
    /// By thread id.
    package var threads: [Int: Thread]

    package static func now() -> ThreadCPUSnapshot {
        var threads: [Int: Thread] = [:]
        let ids = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
        for id in ids {
            guard let tid = Int(id),
                  let stat = try? String(contentsOfFile: "/proc/self/task/\(id)/schedstat", encoding: .utf8),
                  let ns = stat.split(separator: " ").first.flatMap({ Double($0) }) else { continue }
            let name = (try? String(contentsOfFile: "/proc/self/task/\(id)/comm", encoding: .utf8))?
                .trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
            threads[tid] = Thread(name: name, seconds: ns * 1e-9)
        }
        return ThreadCPUSnapshot(threads: threads)
    }

    /// CPU seconds used since `earlier` by the threads alive in both snapshots, summed by
    /// `group(name)`. Threads that started or ended in between are left out: measure those
    /// from inside (`CurrentThread`).
    package func since(_ earlier: ThreadCPUSnapshot, group: (String) -> String) -> [String: Double] {
        var sums: [String: Double] = [:]
        for (tid, t) in threads {
            guard let before = earlier.threads[tid] else { continue }
            sums[group(t.name), default: 0] += t.seconds - before.seconds
        }
        return sums
    }
}
