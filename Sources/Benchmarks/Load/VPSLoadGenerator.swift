import Foundation
import Support
import VPSModel
import Synchronization
import VPSClient

/// Requests/s and latency of one load run against a VPS service.
public struct LoadReport: Sendable, Hashable, Codable {
    public var concurrency: Int
    /// Timed requests (warm-up requests excluded).
    public var requests: Int
    /// Requests that failed (any `VPSClientError`).
    public var errors: Int
    /// Wall-clock seconds of the timed part.
    public var seconds: Double
    public var requestsPerSecond: Double
    public var p50Ms: Double
    public var p99Ms: Double
    public var meanMs: Double
    /// Localizations answered `localized` (the rest `notLocalized` or failed).
    public var localized: Int
    /// The first failure, for the report.
    public var firstError: String?
    /// CPU seconds the client's own threads used during the timed part (user and system):
    /// what the load generator took from a machine it shares with the server.
    public var clientCPUSeconds: Double
}

/// Drives `POST /v1/localize` at a fixed concurrency, closed loop: `concurrency` threads,
/// each with its own kept-alive `VPSLoadConnection`, take the `requests` requests in turn
/// (request i sends frame i mod frames) and send the next as soon as an answer arrives.
/// Each connection first sends one untimed warm-up request. The requests are built once,
/// before the timed part, and the client's CPU time is measured (`clientCPUSeconds`).
public enum VPSLoadGenerator {
    public struct Frame: Sendable {
        public var image: [UInt8]
        public var request: LocalizeRequest
        public init(image: [UInt8], request: LocalizeRequest) { self.image = image; self.request = request }
    }

    /// The run on threads of its own, awaited without holding a Swift concurrency thread.
    public static func run(baseURL: String, token: String, frames: [Frame], concurrency: Int,
                           requests: Int) async throws(VPSClientError) -> LoadReport {
        let result: Result<LoadReport, VPSClientError> = await withCheckedContinuation { done in
            WorkerThreads.start(name: "arcloud-load") {
                do throws(VPSClientError) {
                    done.resume(returning: .success(try measure(baseURL: baseURL, token: token, frames: frames,
                                                                concurrency: concurrency, requests: requests)))
                } catch {
                    done.resume(returning: .failure(error))
                }
            }
        }
        return try result.get()
    }

    /// The run, blocking the calling thread until every request is answered.
    public static func measure(baseURL: String, token: String, frames: [Frame], concurrency: Int,
                               requests: Int) throws(VPSClientError) -> LoadReport {
        guard !frames.isEmpty, concurrency >= 1, requests >= 1 else {
            throw .invalidRequest("a load run needs frames, concurrency >= 1 and requests >= 1")
        }
        // Each connection is opened just before its warm-up request, not all first: a
        // connection left unused while the others warm up could outlive the server's idle
        // timeout.
        let connections = try (0..<concurrency).map { w throws(VPSClientError) in
            let c = try VPSLoadConnection(baseURL: baseURL, token: token, frames: frames)
            _ = c.localize(frame: w % frames.count)   // warm-up
            return c
        }

        let next = Atomic<Int>(0)
        let tallies = Locked<[LoadTally]>([])
        let clock = ContinuousClock()
        let start = clock.now
        WorkerThreads.run(count: concurrency, name: "load-client") { w in
            let c = connections[w]
            var tally = LoadTally()
            let cpu0 = CurrentThread.cpuSeconds()
            while true {
                let i = next.wrappingAdd(1, ordering: .relaxed).oldValue
                guard i < requests else { break }
                let t0 = clock.now
                let r = c.localize(frame: i % frames.count)
                tally.record(r, latencyMs: (clock.now - t0).milliseconds)
            }
            tally.clientCPUSeconds = CurrentThread.cpuSeconds() - cpu0
            tallies.withLock { $0.append(tally) }
        }
        let seconds = (clock.now - start).milliseconds / 1000
        var all = LoadTally()
        for t in tallies.withLock({ $0 }) { all.merge(t) }
        let latencies = all.latenciesMs.sorted()
        let total = latencies.reduce(0, +)
        return LoadReport(
            concurrency: concurrency, requests: latencies.count, errors: all.errors, seconds: seconds,
            requestsPerSecond: Double(latencies.count) / max(seconds, 1e-9),
            p50Ms: Statistics.percentile(sorted: latencies, 50) ?? 0,
            p99Ms: Statistics.percentile(sorted: latencies, 99) ?? 0,
            meanMs: total / Double(max(1, latencies.count)),
            localized: all.localized, firstError: all.firstError, clientCPUSeconds: all.clientCPUSeconds)
    }
}

