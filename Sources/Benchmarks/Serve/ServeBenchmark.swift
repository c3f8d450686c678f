import Foundation
import Support
import VPSModel
import Synchronization
import VPSClient
import VPSServer

/// The measurements of `arcloud bench serve`, one round at a time (see its `--help`): the
/// in-process engine and the HTTP service on the same frames, interleaved, with the CPU
/// each side's threads used.
package struct ServeBenchmark: Sendable {
    package let engine: MapDirectoryEngine
    package let server: VPSServer
    package let token: String
    package let frames: [VPSLoadGenerator.Frame]
    package let requests: Int
    package let levels: [Int]
    package let cores: Int

    package init(engine: MapDirectoryEngine, server: VPSServer, token: String, frames: [VPSLoadGenerator.Frame],
                 requests: Int, levels: [Int], cores: Int) {
        self.engine = engine; self.server = server; self.token = token; self.frames = frames
        self.requests = requests; self.levels = levels; self.cores = cores
    }

    /// CPU milliseconds per request, by thread group, during one HTTP measurement.
    package struct CPUPerRequest: Codable, Sendable {
        /// The server's localization workers (decode and localize, the answer's JSON).
        package var workersMs: Double
        /// libmicrohttpd's connection threads (receive, multipart and request parsing, send).
        package var connectionThreadsMs: Double
        /// The load generator's threads.
        package var clientMs: Double
        /// The rest of the process (watchdog, idle pools).
        package var otherMs: Double
        package var totalMs: Double { workersMs + connectionThreadsMs + clientMs + otherMs }
    }

    /// One HTTP measurement.
    package struct HTTPRun: Codable, Sendable {
        package var concurrency: Int
        /// Requests answered, timed or not (at concurrency > 1 the slices' starts and ends
        /// are outside the timed windows).
        package var requests: Int
        /// Requests in the timed windows: what `requestsPerSecond` counts.
        package var timedRequests: Int
        package var requestsPerSecond: Double
        package var p50Ms: Double
        package var p99Ms: Double
        package var localized: Int
        package var errors: Int
        package var firstError: String?
        package var cpu: CPUPerRequest
        /// The single-thread in-process rate this run is judged against: at concurrency 1 the
        /// paired in-process rate, above it the rate of the in-process slices interleaved
        /// with this run's slices.
        package var baseline: Double
        /// requestsPerSecond / (min(concurrency, cores) x baseline).
        package var scaling: Double
        /// Percent of the machine's CPU time its hypervisor took during this run's HTTP
        /// slices (median; nil where /proc/stat is unreadable): time no software inside the
        /// machine can use.
        package var stolenPercent: Double?
    }

    package struct Round: Codable, Sendable {
        /// Single-thread in-process requests/s paired with HTTP (step 1), then of the
        /// in-process slices interleaved with each HTTP run at concurrency > 1 (step 2), in
        /// that order.
        package var singleThreadPaired: Double
        package var singleThreadInterleaved: [Double]
        /// Percent of CPU time stolen during the in-process slices (median).
        package var singleThreadStolenPercent: Double?
        /// The mean of all of them: the round's single-thread rate.
        package var singleThread: Double
        /// CPU milliseconds per in-process localization (step 2's single-thread runs, the
        /// calling thread's own; median).
        package var inProcessCPUMs: Double
        /// In-process requests/s on `cores` threads at once, and CPU milliseconds per
        /// localization then (nil on one core): the same work at the workers' parallelism.
        package var parallel: Double?
        package var parallelCPUMs: Double?
        /// Median per-frame in-process time, and median per-frame HTTP minus in-process (step 1).
        package var inProcessMedianMs: Double
        package var overheadMs: Double
        package var http: [HTTPRun]
    }

    /// One localization each way, so maps, indexes, buffers and connections are warm.
    package func warmUp() throws {
        _ = try localizeInProcess(0)
        let c = try VPSLoadConnection(baseURL: server.baseURL, token: token, frames: frames)
        if let failure = c.localize(frame: 0).failure { throw BenchmarkFailure("warm-up request failed: \(failure)") }
    }

    /// Every HTTP run is judged against single-thread in-process runs interleaved with it
    /// a fraction of a second apart: on a machine shared with other work (or a virtual
    /// machine whose host takes time from it) the speed drifts over about a second, and a
    /// baseline taken further from the run it judges adds that drift to the ratio.
    package func round() throws -> Round {
        let paired = try pairedAtConcurrency1()
        var runs = levels.contains(1) ? [paired.http] : []
        runs.indices.forEach { runs[$0].baseline = paired.single }
        var singles: [Double] = [], cpuMs: [Double] = [], singleStolen: [Double] = []
        for c in levels where c > 1 {
            let level = try interleaved(concurrency: c)
            runs.append(level.http)
            singles.append(level.single.requestsPerSecond); cpuMs.append(level.single.cpuMs)
            if let stolen = level.singleStolenPercent { singleStolen.append(stolen) }
        }
        if singles.isEmpty {
            let (alone, stolen) = try StolenTime.during { try singleThread(requests) }
            singles.append(alone.requestsPerSecond); cpuMs.append(alone.cpuMs)
            if let stolen { singleStolen.append(stolen) }
        }
        let parallel = cores > 1 ? try inProcessParallel(threads: cores) : nil
        for i in runs.indices {
            runs[i].scaling = runs[i].requestsPerSecond / (Double(min(runs[i].concurrency, cores)) * runs[i].baseline)
        }
        let all = [paired.single] + singles
        return Round(singleThreadPaired: paired.single, singleThreadInterleaved: levels.contains { $0 > 1 } ? singles : [],
                     singleThreadStolenPercent: Statistics.median(singleStolen),
                     singleThread: all.reduce(0, +) / Double(all.count),
                     inProcessCPUMs: Statistics.median(cpuMs) ?? 0, parallel: parallel?.requestsPerSecond,
                     parallelCPUMs: parallel?.cpuMs, inProcessMedianMs: paired.inProcessMedianMs,
                     overheadMs: paired.overheadMs, http: runs)
    }

    // MARK: Steps

    private func localizeInProcess(_ i: Int) throws -> LocalizeResponse {
        let f = frames[i % frames.count]
        do throws(LocalizationEngineError) { return try engine.localize(image: f.image, request: f.request) } catch {
            throw BenchmarkFailure("in-process localization: \(error)")
        }
    }

    /// Step 1: each frame in-process and over one kept-alive connection, back to back.
    private func pairedAtConcurrency1() throws -> (single: Double, http: HTTPRun, inProcessMedianMs: Double,
                                                   overheadMs: Double) {
        let connection = try VPSLoadConnection(baseURL: server.baseURL, token: token, frames: frames)
        _ = connection.localize(frame: 0)
        var local: [Double] = [], remote: [Double] = []
        var localized = 0, errors = 0, firstError: String?, clientCPU = 0.0
        let clock = ContinuousClock()
        let before = ThreadCPUSnapshot.now()
        for i in 0..<requests {
            for turn in (i % 2 == 0 ? [0, 1] : [1, 0]) {
                if turn == 0 {
                    let t0 = clock.now
                    _ = try localizeInProcess(i)
                    local.append(((clock.now - t0).seconds * 1000))
                } else {
                    let cpu0 = CurrentThread.cpuSeconds(), t0 = clock.now
                    let r = connection.localize(frame: i % frames.count)
                    remote.append(((clock.now - t0).seconds * 1000))
                    clientCPU += CurrentThread.cpuSeconds() - cpu0
                    if r.localized { localized += 1 }
                    if let f = r.failure { errors += 1; firstError = firstError ?? f }
                }
            }
        }
        let cpu = cpuPerRequest(ThreadCPUSnapshot.now().since(before, group: Self.group), clientSeconds: clientCPU,
                                requests: requests)
        let differences = zip(remote, local).map { $0 - $1 }
        let sorted = remote.sorted()
        let run = HTTPRun(concurrency: 1, requests: requests, timedRequests: requests, requestsPerSecond: Double(requests) / (remote.reduce(0, +) / 1000),
                          p50Ms: Statistics.percentile(sorted: sorted, 50) ?? 0, p99Ms: Statistics.percentile(sorted: sorted, 99) ?? 0,
                          localized: localized, errors: errors, firstError: firstError, cpu: cpu, baseline: 0, scaling: 0)
        return (Double(requests) / (local.reduce(0, +) / 1000), run, Statistics.median(local) ?? 0,
                Statistics.median(differences) ?? 0)
    }

    /// Step 2: `concurrency` connections, closed loop, in slices of 10 x min(concurrency,
    /// cores) timed requests (about 0.2 s), each next to an in-process single-thread slice
    /// of the same expected length, alternating which goes first. `requests` timed
    /// requests in all.
    private func interleaved(concurrency: Int) throws -> (http: HTTPRun, single: (requestsPerSecond: Double, cpuMs: Double),
                                                          singleStolenPercent: Double?) {
        let load = try ClosedLoopSlices(baseURL: server.baseURL, token: token, frames: frames, concurrency: concurrency)
        let parallelism = min(concurrency, cores)
        var singleRequests = 0, singleSeconds = 0.0, singleCPU = 0.0
        var httpStolen: [Double] = [], singleStolen: [Double] = []
        let before = ThreadCPUSnapshot.now()
        var slice = 0
        while load.timedRequests < requests {
            let timed = min(10 * parallelism, requests - load.timedRequests)
            let local = max(1, timed / parallelism)
            for part in (slice % 2 == 0 ? [0, 1] : [1, 0]) {
                if part == 0 {
                    let (_, stolen) = StolenTime.during { load.slice(timed: timed) }
                    if let stolen { httpStolen.append(stolen) }
                } else {
                    let (alone, stolen) = try StolenTime.during { try singleThread(local, from: singleRequests) }
                    singleRequests += local; singleSeconds += Double(local) / alone.requestsPerSecond
                    singleCPU += alone.cpuMs * Double(local)
                    if let stolen { singleStolen.append(stolen) }
                }
            }
            slice += 1
        }
        let t = load.totals
        let cpu = cpuPerRequest(ThreadCPUSnapshot.now().since(before, group: Self.group),
                                clientSeconds: t.clientCPUSeconds, requests: t.requests)
        let sorted = t.latenciesMs.sorted()
        let run = HTTPRun(concurrency: concurrency, requests: t.requests, timedRequests: load.timedRequests,
                          requestsPerSecond: Double(load.timedRequests) / max(load.timedSeconds, 1e-9),
                          p50Ms: Statistics.percentile(sorted: sorted, 50) ?? 0, p99Ms: Statistics.percentile(sorted: sorted, 99) ?? 0,
                          localized: t.localized, errors: t.errors, firstError: t.firstError, cpu: cpu,
                          baseline: Double(singleRequests) / singleSeconds, scaling: 0,
                          stolenPercent: Statistics.median(httpStolen))
        return (run, (run.baseline, singleCPU / Double(singleRequests)), Statistics.median(singleStolen))
    }

    /// `count` localizations on this thread, in-process only, from frame `first` on; with
    /// this thread's CPU per request.
    private func singleThread(_ count: Int, from first: Int = 0) throws -> (requestsPerSecond: Double, cpuMs: Double) {
        let clock = ContinuousClock()
        let cpu0 = CurrentThread.cpuSeconds(), t0 = clock.now
        for i in first..<(first + count) { _ = try localizeInProcess(i) }
        let seconds = (clock.now - t0).seconds
        return (Double(count) / seconds, (CurrentThread.cpuSeconds() - cpu0) * 1000 / Double(count))
    }

    /// Step 3: the same frames on `threads` threads at once; with their CPU per request.
    private func inProcessParallel(threads: Int) throws -> (requestsPerSecond: Double, cpuMs: Double) {
        let failure = Locked<(any Error)?>(nil)
        let cpu = Locked(0.0)
        let next = Atomic<Int>(0)
        let clock = ContinuousClock()
        let t0 = clock.now
        WorkerThreads.run(count: threads) { _ in
            let cpu0 = CurrentThread.cpuSeconds()
            defer { let used = CurrentThread.cpuSeconds() - cpu0; cpu.withLock { $0 += used } }
            while true {
                let i = next.wrappingAdd(1, ordering: .relaxed).oldValue
                guard i < requests else { return }
                do { _ = try localizeInProcess(i) } catch { failure.withLock { $0 = $0 ?? error } }
            }
        }
        if let error = failure.withLock({ $0 }) { throw error }
        return (Double(requests) / ((clock.now - t0).seconds), cpu.withLock { $0 } * 1000 / Double(requests))
    }

    // MARK: CPU accounting

    /// Thread groups by name: the server's workers (`WorkerPool` names them), libmicrohttpd's
    /// threads (it names them `MHD-…`), this benchmark's own threads, the rest.
    private static func group(_ threadName: String) -> String {
        if threadName.hasPrefix("arcloud-localiz") { return "workers" }
        if threadName.hasPrefix("MHD") { return "connection" }
        if threadName.hasPrefix("bench-") || threadName.hasPrefix("load-client") { return "bench" }
        return "other"
    }

    private func cpuPerRequest(_ seconds: [String: Double], clientSeconds: Double, requests: Int) -> CPUPerRequest {
        let n = Double(requests) / 1000
        return CPUPerRequest(workersMs: (seconds["workers"] ?? 0) / n, connectionThreadsMs: (seconds["connection"] ?? 0) / n,
                             clientMs: clientSeconds / n, otherMs: (seconds["other"] ?? 0) / n)
    }
}
