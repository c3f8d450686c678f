import Foundation
import Support

extension ServeBenchmark {
    /// Medians over the rounds (ratios are taken within each round first), the worst round
    /// of every scaling, and whether the target held: by this run's figures (the medians),
    /// and in every round.
    package struct Summary: Encodable {
        package struct Level: Encodable {
            /// Every round's run at this concurrency in one: counts summed, every other
            /// figure (rates, latencies, CPU, baseline, scaling, steal) the median over rounds.
            package var combined: HTTPRun
            package var worstScaling: Double
            package var bestScaling: Double
        }
        package var rounds: Int
        package var cores: Int
        package var singleThreadRequestsPerSecond: Double
        package var singleThreadWorst: Double
        package var singleThreadBest: Double
        package var singleThreadStolenPercent: Double?
        /// In-process on `cores` threads over the single-thread rate, per round, median.
        package var parallelSpeedup: Double?
        package var inProcessCPUMs: Double
        /// CPU per localization in-process on `cores` threads at once (median), nil on one core.
        package var parallelCPUMs: Double?
        package var inProcessMedianMs: Double
        package var overheadMs: Double
        package var overheadPercent: Double
        package var levels: [Level]
        /// The service's throughput target, judged on this run's figures: the median scaling over the
        /// rounds is >= 0.9 at every concurrency >= cores. A round (one measurement of
        /// `--requests` requests, about a second) is too short to judge alone on a machine
        /// whose hypervisor takes CPU time in bursts; the median of the rounds
        /// is the run's figure, and every run must meet it.
        package var targetMet: Bool
        /// The stricter reading: >= 0.9 at every concurrency >= cores in every round.
        package var targetMetInEveryRound: Bool
        package var targetLevelsMeasured: Bool

        package init(rounds: [Round], levels: [Int], cores: Int) {
            func median(_ values: [Double]) -> Double { Statistics.median(values) ?? 0 }
            self.rounds = rounds.count
            self.cores = cores
            let singles = rounds.map(\.singleThread)
            singleThreadRequestsPerSecond = median(singles)
            singleThreadWorst = singles.min() ?? 0
            singleThreadBest = singles.max() ?? 0
            singleThreadStolenPercent = Statistics.median(rounds.compactMap(\.singleThreadStolenPercent))
            let speedups = rounds.compactMap { r in r.parallel.map { $0 / r.singleThread } }
            parallelSpeedup = speedups.isEmpty ? nil : median(speedups)
            inProcessCPUMs = median(rounds.map(\.inProcessCPUMs))
            let parallelCPU = rounds.compactMap(\.parallelCPUMs)
            parallelCPUMs = parallelCPU.isEmpty ? nil : median(parallelCPU)
            inProcessMedianMs = median(rounds.map(\.inProcessMedianMs))
            overheadMs = median(rounds.map(\.overheadMs))
            overheadPercent = median(rounds.map { $0.overheadMs / max($0.inProcessMedianMs, 1e-9) * 100 })
            self.levels = levels.map { c in
                let runs = rounds.compactMap { r in r.http.first { $0.concurrency == c } }
                let scalings = runs.map(\.scaling)
                return Level(combined: HTTPRun(combining: runs, concurrency: c),
                             worstScaling: scalings.min() ?? 0, bestScaling: scalings.max() ?? 0)
            }
            let judged = self.levels.filter { $0.combined.concurrency >= cores }
            targetLevelsMeasured = !judged.isEmpty
            targetMet = targetLevelsMeasured && judged.allSatisfy { $0.combined.scaling >= 0.9 }
            targetMetInEveryRound = targetLevelsMeasured && judged.allSatisfy { $0.worstScaling >= 0.9 }
        }

        package func text(loadBefore: [Double], loadAfter: [Double], stolenPercent: Double?) -> String {
            func load(_ l: [Double]) -> String { l.map { String(format: "%.2f", $0) }.joined(separator: " ") }
            var lines: [String] = []
            lines.append("load average (1/5/15 min): \(load(loadBefore)) before, \(load(loadAfter)) after"
                         + (stolenPercent.map { String(format: "; CPU time stolen by the hypervisor: %.1f %%", $0) } ?? ""))
            lines.append(String(format: "in-process, 1 thread: %.1f req/s (median of %d rounds; %.1f to %.1f), %.2f ms CPU per localization",
                                singleThreadRequestsPerSecond, rounds, singleThreadWorst, singleThreadBest, inProcessCPUMs)
                         + (singleThreadStolenPercent.map { String(format: "; %.1f %% stolen meanwhile", $0) } ?? ""))
            if let s = parallelSpeedup, let c = parallelCPUMs {
                lines.append(String(format: "in-process, %d threads at once: %.2f x the 1-thread rate (%d if the machine were this process's alone), %.2f ms CPU per localization",
                                    cores, s, cores, c))
            }
            lines.append(String(format: "HTTP overhead at concurrency 1 (each frame in-process and over HTTP, back to back): %+.2f ms = %+.1f %% of the %.2f ms in-process time",
                                overheadMs, overheadPercent, inProcessMedianMs))
            lines.append("concurrency    req/s  scaling [worst, best]   p50 ms   p99 ms   CPU ms/request: workers  conn. threads  client  other  = total   localized  errors  stolen %")
            for level in levels {
                let l = level.combined
                lines.append(String(format: "%11d  %7.1f     %.2f [%.2f, %.2f]  %7.1f  %7.1f   %24.2f  %13.2f  %6.2f  %5.2f  = %5.2f  %5d/%-5d  %6d",
                                    l.concurrency, l.requestsPerSecond, l.scaling, level.worstScaling, level.bestScaling, l.p50Ms, l.p99Ms,
                                    l.cpu.workersMs, l.cpu.connectionThreadsMs, l.cpu.clientMs, l.cpu.otherMs, l.cpu.totalMs,
                                    l.localized, l.requests, l.errors)
                             + (l.stolenPercent.map { String(format: "  %8.1f", $0) } ?? "         -")
                             + (l.firstError.map { " (first: \($0))" } ?? ""))
            }
            lines.append("scaling = req/s over (min(concurrency, \(cores)) x the 1-thread in-process rate of the slices interleaved with that run); medians over rounds")
            if let top = levels.last?.combined, top.cpu.totalMs > 0, let same = top.concurrency > 1 ? parallelCPUMs : inProcessCPUMs {
                // The same work at the same parallelism: what HTTP adds to each request's CPU.
                lines.append(String(format: "CPU per request at concurrency %d: %.2f ms over HTTP (all threads) vs %.2f ms in-process on %d thread(s) at once: HTTP adds %+.2f ms (%+.1f %%)",
                                    top.concurrency, top.cpu.totalMs, same, min(top.concurrency, cores),
                                    top.cpu.totalMs - same, (top.cpu.totalMs - same) / same * 100))
            }
            if !targetLevelsMeasured {
                lines.append("scaling target: no concurrency >= \(cores) measured")
            } else {
                let judged = levels.filter { $0.combined.concurrency >= cores }
                let lowest = judged.min { $0.combined.scaling < $1.combined.scaling }!
                let worst = judged.min { $0.worstScaling < $1.worstScaling }!
                lines.append(String(format: "scaling target (>= 0.90 at every concurrency >= %d, this run's medians over %d rounds): %@ (lowest: %.2f at concurrency %d); in every round: %@ (worst round: %.2f at concurrency %d)",
                                    cores, rounds, targetMet ? "met" : "NOT met", lowest.combined.scaling, lowest.combined.concurrency,
                                    targetMetInEveryRound ? "held" : "not held", worst.worstScaling, worst.combined.concurrency))
            }
            return lines.joined(separator: "\n")
        }
    }
}

extension ServeBenchmark.HTTPRun {
    /// The runs of several rounds at one concurrency in one: counts summed, the rest medians.
    package init(combining runs: [Self], concurrency: Int) {
        func median(_ figure: (Self) -> Double) -> Double { Statistics.median(runs.map(figure)) ?? 0 }
        self.init(concurrency: concurrency, requests: runs.reduce(0) { $0 + $1.requests },
                  timedRequests: runs.reduce(0) { $0 + $1.timedRequests },
                  requestsPerSecond: median(\.requestsPerSecond), p50Ms: median(\.p50Ms), p99Ms: median(\.p99Ms),
                  localized: runs.reduce(0) { $0 + $1.localized }, errors: runs.reduce(0) { $0 + $1.errors },
                  firstError: runs.compactMap(\.firstError).first,
                  cpu: ServeBenchmark.CPUPerRequest(workersMs: median(\.cpu.workersMs),
                                                    connectionThreadsMs: median(\.cpu.connectionThreadsMs),
                                                    clientMs: median(\.cpu.clientMs), otherMs: median(\.cpu.otherMs)),
                  baseline: median(\.baseline), scaling: median(\.scaling),
                  stolenPercent: Statistics.median(runs.compactMap(\.stolenPercent)))
    }
}
