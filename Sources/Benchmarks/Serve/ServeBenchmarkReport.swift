import Foundation
import Storage
import Support
import VPSModel
import VPSServer

/// What `bench serve` reports: the rounds, their summary, and the machine's load and
/// steal around them; `--json` prints it as is.
package struct ServeBenchmarkReport: Encodable {
    package var map: String
    /// Frames sent, cycled.
    package var frames: Int
    /// Timed requests per concurrency and round.
    package var requestsPerMeasurement: Int
    package var cores: Int
    /// The server's localizations at once.
    package var workers: Int
    package var loadAverageBefore: [Double]
    package var loadAverageAfter: [Double]
    /// Percent of the machine's CPU time the hypervisor took over the whole run (nil where
    /// /proc/stat cannot be read).
    package var stolenCPUPercent: Double?
    package var summary: ServeBenchmark.Summary
    package var rounds: [ServeBenchmark.Round]

    /// Whether any request of any round failed.
    package var anyRequestFailed: Bool { rounds.contains { r in r.http.contains { $0.errors > 0 } } }

    /// The text report: a heading line naming the map, the session, rounds, cores and
    /// workers, then the summary.
    package func text(session: String) -> String {
        String(format: "bench serve: map '%@', %d frames of %@; %d rounds x %d requests; %d cores, %d localizations at once",
               map, frames, session, rounds.count, requestsPerMeasurement, cores, workers) + "\n"
            + summary.text(loadBefore: loadAverageBefore, loadAfter: loadAverageAfter, stolenPercent: stolenCPUPercent)
    }
}

extension ServeBenchmark {
    /// The first `count` frames of the session in `sessionDir`, as requests for map `mapId`
    /// (with each frame's gravity).
    package static func frames(of session: RecordedSession, in sessionDir: URL, count: Int,
                               mapId: String) throws -> [VPSLoadGenerator.Frame] {
        try session.frames.prefix(count).map { f in
            VPSLoadGenerator.Frame(image: [UInt8](try Data(contentsOf: RecordedSession.imageURL(of: f, in: sessionDir))),
                                   request: LocalizeRequest(mapId: mapId, intrinsics: session.camera, gravity: f.gravity))
        }
    }

    /// Starts the service over `engine` on a free loopback port, with an in-memory token
    /// store and no per-client connection cap; returns it and a token it accepts.
    package static func startServer(engine: MapDirectoryEngine, workers: Int,
                                     idleHelpers: Int) throws -> (server: VPSServer, token: String) {
        let store = try SQLiteTokenStore(path: ":memory:")
        let token = try store.create(name: "bench").token
        let server = VPSServer(engine: engine, tokens: store, configuration: VPSServerConfiguration(
            port: 0, localizationWorkers: workers, idleCoreHelpers: idleHelpers, maxConnectionsPerClient: 0))
        try server.start()
        return (server, token)
    }

    /// Warms up, then runs `rounds` rounds on a thread of its own named `bench-driver` (the
    /// per-thread CPU split leaves it out, and the Swift concurrency pool is not held),
    /// with the load averages and steal around them.
    package func measure(rounds roundCount: Int, mapId: String) throws -> ServeBenchmarkReport {
        let loadBefore = LoadAverage.read()
        let stolenBefore = StolenTime.now()
        let outcome = Locked<Result<[Round], any Error>>(.success([]))
        WorkerThreads.run(count: 1) { _ in
            CurrentThread.setName("bench-driver")
            outcome.withLock { $0 = Result { try warmUp(); return try (0..<roundCount).map { _ in try round() } } }
        }
        let rounds = try outcome.withLock { $0 }.get()
        let summary = Summary(rounds: rounds, levels: levels, cores: cores)
        let loadAfter = LoadAverage.read()
        let stolenPercent = stolenBefore.flatMap { b in StolenTime.now().map { $0.percent(since: b) } }
        return ServeBenchmarkReport(map: mapId, frames: frames.count, requestsPerMeasurement: requests, cores: cores,
                                    workers: server.configuration.localizationWorkers, loadAverageBefore: loadBefore,
                                    loadAverageAfter: loadAfter, stolenCPUPercent: stolenPercent, summary: summary,
                                    rounds: rounds)
    }
}
