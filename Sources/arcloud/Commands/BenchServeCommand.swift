import Foundation
import VPS
import VPSClient
import VPSServer

struct BenchServeCommand: Command {
    static let name = "bench serve"
    static let summary = "Measure the HTTP service: requests/s and p50/p99 at several concurrencies"
    static let help = """
        USAGE: arcloud bench serve --maps <dir> --map <id> --dataset <session-dir>
                                   [--frames 20] [--requests 100] [--concurrency 1,4,16]
                                   [--threads N] [--json]

        Times the in-process localizer on the dataset's frames (median ms per frame), then
        starts the HTTP service on a free loopback port and sends --requests localize
        requests at each concurrency through the libcurl client (each worker on its own
        kept-alive connection, after one warm-up request). Prints requests/s, p50 and p99
        latency and errors per concurrency, and the HTTP overhead at concurrency 1 against
        the in-process time (target: under 10 %).

        OPTIONS:
          --maps <dir>           Directory of .vpsmap files (required)
          --map <id>             Map to localize against (required)
          --dataset <dir>        Recorded session whose frames are sent (required)
          --frames <n>           Frames used, from the start of the session (default 20)
          --requests <n>         Timed requests per concurrency (default 100)
          --concurrency <list>   Comma-separated concurrencies (default 1,4,16)
          --threads <n>          Server worker threads (default: twice the cores, at least 4)
          --json                 One JSON object instead of text
        """
    static let options: Set<String> = ["maps", "map", "dataset", "frames", "requests", "concurrency", "threads"]
    static let switches: Set<String> = ["json"]

    static func run(_ args: Arguments) async throws -> Int32 {
        try args.noExtraPositionals(beyond: 0)
        let mapId = try args.require("map")
        let frameCount = try args.int("frames", default: 20, range: 1...10_000)
        let requests = try args.int("requests", default: 100, range: 1...1_000_000)
        let levels = try (args.value("concurrency") ?? "1,4,16").split(separator: ",").map { s -> Int in
            guard let n = Int(s), (1...256).contains(n) else { throw UsageError("--concurrency needs numbers in 1...256, got '\(s)'") }
            return n
        }
        let mapsDir = URL(fileURLWithPath: try args.require("maps"), isDirectory: true)
        let engine = MapDirectoryEngine(directory: mapsDir)
        guard let mapFile = engine.cache.file(of: mapId) else { throw CommandFailure("no map '\(mapId)' in \(mapsDir.path)") }

        let sessionDir = URL(fileURLWithPath: try args.require("dataset"), isDirectory: true)
        let session = try RecordedSession.load(from: sessionDir)
        let frames = try session.frames.prefix(frameCount).map { f in
            VPSLoadGenerator.Frame(image: [UInt8](try Data(contentsOf: sessionDir.appendingPathComponent(f.image))),
                                   request: LocalizeRequest(mapId: mapId, intrinsics: session.camera))
        }
        guard !frames.isEmpty else { throw CommandFailure("the dataset has no frames") }

        // In-process: the localizer called directly, as `arcloud localize` does.
        let localizer = try Localizer(map: try VPSMap.load(from: mapFile.path))
        func localizeInProcess(_ f: VPSLoadGenerator.Frame) throws -> LocalizationResult {
            try localizer.localize(encoded: f.image, intrinsics: f.request.intrinsics, prior: f.request.prior)
        }
        _ = try localizeInProcess(frames[0])                  // warm-up
        var inProcess: [Double] = []
        var localizedInProcess = 0
        let clock = ContinuousClock()
        for f in frames {
            let t0 = clock.now
            if try localizeInProcess(f).isLocalized { localizedInProcess += 1 }
            let d = (clock.now - t0).components
            inProcess.append(Double(d.seconds) * 1000 + Double(d.attoseconds) * 1e-15)
        }
        let inProcessMedian = Statistics.median(inProcess) ?? 0

        let store = try TokenStore(path: ":memory:")
        let token = try store.create(name: "bench").token
        let server = VPSServer(engine: engine, tokens: store, configuration: VPSServerConfiguration(
            port: 0, threads: try args.int("threads", default: VPSServerConfiguration.defaultThreads, range: 1...256)))
        do { try server.start() } catch { throw CommandFailure("\(error)") }
        defer { server.stop() }
        var reports: [LoadReport] = []
        for c in levels {
            reports.append(try await VPSLoadGenerator.run(baseURL: server.baseURL, token: token, frames: frames,
                                                          concurrency: c, requests: requests))
        }
        let overhead = reports.first { $0.concurrency == 1 }.map { ($0.p50Ms - inProcessMedian) / max(inProcessMedian, 1e-9) * 100 }

        if args.has("json") {
            struct Output: Encodable {
                var map: String; var frames: Int; var inProcessMedianMs: Double; var inProcessLocalized: Int
                var http: [LoadReport]; var overheadAtConcurrency1Percent: Double?
            }
            let e = JSONEncoder()
            e.outputFormatting = [.prettyPrinted, .sortedKeys]
            let out = Output(map: mapId, frames: frames.count, inProcessMedianMs: inProcessMedian,
                             inProcessLocalized: localizedInProcess, http: reports, overheadAtConcurrency1Percent: overhead)
            print(String(decoding: try e.encode(out), as: UTF8.self))
        } else {
            print("bench serve: map '\(mapId)', \(frames.count) frames of \(session.name), server threads \(server.configuration.threads)")
            print(String(format: "in-process localizer: median %.2f ms/frame, %d/%d localized", inProcessMedian, localizedInProcess, frames.count))
            for r in reports {
                print(String(format: "HTTP concurrency %3d: %7.1f req/s  p50 %7.2f ms  p99 %7.2f ms  %d/%d localized  %d errors",
                             r.concurrency, r.requestsPerSecond, r.p50Ms, r.p99Ms, r.localized, r.requests, r.errors)
                      + (r.firstError.map { " (first: \($0))" } ?? ""))
            }
            if let overhead {
                print(String(format: "HTTP overhead at concurrency 1: %+.1f %% of the in-process time (target < 10 %%)", overhead))
            }
        }
        return reports.contains { $0.errors > 0 } ? 1 : 0
    }
}
