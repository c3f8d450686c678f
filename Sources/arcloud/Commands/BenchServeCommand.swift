import Foundation
import Locking
import VPS
import VPSClient
import VPSServer

struct BenchServeCommand: Command {
    static let name = "bench serve"
    static let summary = "Measure the HTTP service: requests/s and p50/p99 at several concurrencies"
    static let help = """
        USAGE: arcloud bench serve --maps <dir> --map <id> --dataset <session-dir>
                                   [--frames 20] [--requests 100] [--concurrency 1,2,4,16]
                                   [--threads N] [--workers N] [--json]

        Starts the HTTP service on a free loopback port, then:
        1. measures the single-thread in-process rate: --requests frames (cycling the
           dataset's first --frames) localized one after another by the same engine the
           server uses, without HTTP; once before and once after the HTTP runs (the
           figure is their mean, so load from other processes hits both sides alike);
        2. localizes --requests frames both in-process and over HTTP, back to back per
           frame, and reports the median per-frame HTTP overhead (target: < 10 %);
        3. sends --requests localize requests at each concurrency through the libcurl
           client (each worker on its own kept-alive connection, after one warm-up
           request) and prints requests/s, p50 and p99 latency, errors, and the scaling:
           requests/s over (min(concurrency, cores) x the in-process rate). The target at
           concurrency >= cores is a scaling of at least 0.9.
        On a machine shared with other work the cores are not all this process's, so the
        same run also measures the in-process rate on min(concurrency, cores) threads at
        once (before and after the HTTP runs, like the single-thread rate) and prints each
        HTTP figure against it too, with the CPU this process got during that HTTP run (in
        cores): the parallel in-process speedup and the CPU show how much of the machine
        there was, the HTTP-over-parallel ratio how much of it the server turned into
        answers.

        OPTIONS:
          --maps <dir>           Directory of .vpsmap files (required)
          --map <id>             Map to localize against (required)
          --dataset <dir>        Recorded session whose frames are sent (required)
          --frames <n>           Frames used, from the start of the session (default 20)
          --requests <n>         Timed requests per concurrency (default 100)
          --concurrency <list>   Comma-separated concurrencies (default 1,2,4,16)
          --threads <n>          Server connection threads (default: the cores, at least 2)
          --workers <n>          Server localization workers (default: the cores)
          --json                 One JSON object instead of text

        Exit status 1 when any request failed; the scaling target is reported, not enforced
        (a machine shared with other work cannot meet it reliably).
        """
    static let options: Set<String> = ["maps", "map", "dataset", "frames", "requests", "concurrency", "threads", "workers"]
    static let switches: Set<String> = ["json"]

    static func run(_ args: Arguments) async throws -> Int32 {
        try args.noExtraPositionals(beyond: 0)
        let mapId = try args.require("map")
        let frameCount = try args.int("frames", default: 20, range: 1...10_000)
        let requests = try args.int("requests", default: 100, range: 1...1_000_000)
        let levels = try (args.value("concurrency") ?? "1,2,4,16").split(separator: ",").map { s -> Int in
            guard let n = Int(s), (1...256).contains(n) else { throw UsageError("--concurrency needs numbers in 1...256, got '\(s)'") }
            return n
        }
        let mapsDir = URL(fileURLWithPath: try args.require("maps"), isDirectory: true)
        let engine = MapDirectoryEngine(directory: mapsDir)
        guard let mapFile = engine.cache.file(of: mapId) else { throw CommandFailure("no map '\(mapId)' in \(mapsDir.path)") }

        let sessionDir = URL(fileURLWithPath: try args.require("dataset"), isDirectory: true)
        let session = try RecordedSession.load(from: sessionDir)
        let frames = try session.frames.prefix(frameCount).map { f in
            VPSLoadGenerator.Frame(image: [UInt8](try Data(contentsOf: RecordedSession.imageURL(of: f, in: sessionDir))),
                                   request: LocalizeRequest(mapId: mapId, intrinsics: session.camera,
                                                            gravity: f.gravity))
        }
        guard !frames.isEmpty else { throw CommandFailure("the dataset has no frames") }

        // In-process: the localizer called directly, as `arcloud localize` does.
        let localizer = try Localizer(map: try VPSMap.load(from: mapFile.path))
        func localizeInProcess(_ f: VPSLoadGenerator.Frame) throws -> LocalizationResult {
            try localizer.localize(encoded: f.image, intrinsics: f.request.intrinsics, prior: f.request.prior,
                                   gravity: f.request.gravity)
        }
        func milliseconds(_ d: Duration) -> Double {
            Double(d.components.seconds) * 1000 + Double(d.components.attoseconds) * 1e-15
        }

        let store = try SQLiteTokenStore(path: ":memory:")
        let token = try store.create(name: "bench").token
        let server = VPSServer(engine: engine, tokens: store, configuration: VPSServerConfiguration(
            port: 0, threads: try args.int("threads", default: VPSServerConfiguration.defaultThreads, range: 1...256),
            localizationWorkers: try args.int("workers", default: VPSServerConfiguration.defaultWorkers, range: 1...256),
            maxConnectionsPerClient: 0))
        do { try server.start() } catch { throw CommandFailure("\(error)") }
        defer { server.stop() }
        let client = try VPSClient(baseURL: server.baseURL, token: token, options: .init(requestTimeout: .seconds(120)))

        // Paired and interleaved: each frame is localized in-process and over HTTP back to
        // back (alternating which goes first), so load from other processes hits both
        // alike and the overhead is the median of the per-pair differences.
        _ = try localizeInProcess(frames[0])                  // warm-up (map index, buffers)
        _ = try await client.localize(image: frames[0].image, request: frames[0].request)
        var inProcess: [Double] = [], differences: [Double] = []
        var localizedInProcess = 0
        let clock = ContinuousClock()
        for i in 0..<requests {
            let f = frames[i % frames.count]
            var local = 0.0, remote = 0.0
            for turn in (i % 2 == 0 ? [0, 1] : [1, 0]) {
                let t0 = clock.now
                if turn == 0 {
                    let lr = try localizeInProcess(f)
                    if lr.isLocalized { localizedInProcess += 1 }
                    local = milliseconds(clock.now - t0)
                } else {
                    _ = try await client.localize(image: f.image, request: f.request)
                    remote = milliseconds(clock.now - t0)
                }
            }
            inProcess.append(local)
            differences.append(remote - local)
        }
        let inProcessMedian = Statistics.median(inProcess) ?? 0
        let overheadMs = Statistics.median(differences) ?? 0
        let overhead = overheadMs / max(inProcessMedian, 1e-9) * 100

        // The single-thread in-process rate, through the server's own engine (same map
        // cache, same pooled localizers), before and after the HTTP runs.
        func inProcessRate() throws -> Double {
            let t0 = clock.now
            for i in 0..<requests {
                let f = frames[i % frames.count]
                _ = try engine.localize(image: f.image, request: f.request)
            }
            return Double(requests) / max((clock.now - t0).secondsValue, 1e-9)
        }
        let cores = ProcessInfo.processInfo.activeProcessorCount
        let parallelThreads = Array(Set(levels.map { min($0, cores) }).filter { $0 > 1 }).sorted()
        // The same frames on `threads` plain threads at once (each its own engine call,
        // as the server's workers make them).
        func parallelInProcessRate(threads: Int) throws -> Double {
            let failure = Locked<LocalizationEngineError?>(nil)
            let t0 = clock.now
            ThreadGroup.run(count: threads) { t in
                for i in stride(from: t, to: requests, by: threads) {
                    let f = frames[i % frames.count]
                    do throws(LocalizationEngineError) { _ = try engine.localize(image: f.image, request: f.request) } catch {
                        failure.withLock { if $0 == nil { $0 = error } }
                    }
                }
            }
            let seconds = (clock.now - t0).secondsValue
            if let error = failure.withLock({ $0 }) { throw CommandFailure("in-process localization: \(error)") }
            return Double(requests) / max(seconds, 1e-9)
        }
        let rateBefore = try inProcessRate()
        var parallelBefore: [Int: Double] = [:]
        for n in parallelThreads { parallelBefore[n] = try parallelInProcessRate(threads: n) }
        var reports: [LoadReport] = []
        var cpuCores: [Int: Double] = [:]
        for c in levels {
            let cpu0 = ProcessCPUTime.seconds(), t0 = clock.now
            reports.append(try await VPSLoadGenerator.run(baseURL: server.baseURL, token: token, frames: frames,
                                                          concurrency: c, requests: requests))
            cpuCores[c] = (ProcessCPUTime.seconds() - cpu0) / max((clock.now - t0).secondsValue, 1e-9)
        }
        let rateAfter = try inProcessRate()
        var parallelRates: [Int: Double] = [1: (rateBefore + rateAfter) / 2]
        for n in parallelThreads { parallelRates[n] = (parallelBefore[n]! + (try parallelInProcessRate(threads: n))) / 2 }
        let rate = (rateBefore + rateAfter) / 2
        func scaling(_ r: LoadReport) -> Double { r.requestsPerSecond / (Double(min(r.concurrency, cores)) * rate) }
        func ofParallel(_ r: LoadReport) -> Double { r.requestsPerSecond / parallelRates[min(r.concurrency, cores)]! }

        let atOrAboveCores = reports.filter { $0.concurrency >= cores }
        let targetMet = !atOrAboveCores.isEmpty && atOrAboveCores.allSatisfy { scaling($0) >= 0.9 }
        if args.has("json") {
            struct Output: Encodable {
                var map: String; var frames: Int; var inProcessMedianMs: Double; var inProcessLocalized: Int
                var http: [LoadReport]; var overheadAtConcurrency1Ms: Double; var overheadAtConcurrency1Percent: Double
                var cores: Int; var inProcessRequestsPerSecond: Double; var inProcessRateBefore: Double
                var inProcessRateAfter: Double; var scaling: [String: Double]; var scalingTargetMet: Bool
                /// In-process requests/s on n threads at once (n = 1 is the single-thread rate).
                var inProcessParallelRequestsPerSecond: [String: Double]
                /// Each HTTP run's requests/s over the in-process rate on min(concurrency, cores) threads.
                var ofParallelInProcess: [String: Double]
                /// CPU seconds this process used per wall second during each HTTP run.
                var cpuCores: [String: Double]
            }
            let e = JSONEncoder()
            e.outputFormatting = [.prettyPrinted, .sortedKeys]
            let out = Output(map: mapId, frames: frames.count, inProcessMedianMs: inProcessMedian,
                             inProcessLocalized: localizedInProcess, http: reports, overheadAtConcurrency1Ms: overheadMs,
                             overheadAtConcurrency1Percent: overhead, cores: cores, inProcessRequestsPerSecond: rate,
                             inProcessRateBefore: rateBefore, inProcessRateAfter: rateAfter,
                             scaling: Dictionary(uniqueKeysWithValues: reports.map { ("\($0.concurrency)", scaling($0)) }),
                             scalingTargetMet: targetMet,
                             inProcessParallelRequestsPerSecond: Dictionary(uniqueKeysWithValues: parallelRates.map { ("\($0.key)", $0.value) }),
                             ofParallelInProcess: Dictionary(uniqueKeysWithValues: reports.map { ("\($0.concurrency)", ofParallel($0)) }),
                             cpuCores: Dictionary(uniqueKeysWithValues: cpuCores.map { ("\($0.key)", $0.value) }))
            print(String(decoding: try e.encode(out), as: UTF8.self))
        } else {
            print("bench serve: map '\(mapId)', \(frames.count) frames of \(session.name), server threads \(server.configuration.threads)")
            print(String(format: "in-process localizer: median %.2f ms/frame, %d/%d localized", inProcessMedian, localizedInProcess, requests))
            print(String(format: "in-process single thread: %.1f req/s (%.1f before, %.1f after the HTTP runs); %d cores, %d workers",
                         rate, rateBefore, rateAfter, cores, server.configuration.localizationWorkers))
            for n in parallelThreads {
                print(String(format: "in-process on %d threads at once: %.1f req/s = %.2f x the single-thread rate (%d if this process had %d cores to itself)",
                             n, parallelRates[n]!, parallelRates[n]! / max(rate, 1e-9), n, n))
            }
            for r in reports {
                print(String(format: "HTTP concurrency %3d: %7.1f req/s = %.2f x (%d x in-process) = %.2f x in-process %d at once, CPU %.2f cores  p50 %7.2f ms  p99 %7.2f ms  %d/%d localized  %d errors",
                             r.concurrency, r.requestsPerSecond, scaling(r), min(r.concurrency, cores), ofParallel(r),
                             min(r.concurrency, cores), cpuCores[r.concurrency] ?? 0,
                             r.p50Ms, r.p99Ms, r.localized, r.requests, r.errors)
                      + (r.firstError.map { " (first: \($0))" } ?? ""))
            }
            print(String(format: "HTTP overhead at concurrency 1 (paired): %+.2f ms = %+.1f %% of the in-process time (target < 10 %%)",
                         overheadMs, overhead))
            print(atOrAboveCores.isEmpty ? "scaling target: no concurrency >= \(cores) measured"
                  : "scaling target (>= 0.90 at concurrency >= \(cores)): " + (targetMet ? "met" : "NOT met"))
        }
        return reports.contains { $0.errors > 0 } ? 1 : 0
    }
}
