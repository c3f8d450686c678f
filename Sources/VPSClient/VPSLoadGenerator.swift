import VPS

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
}

/// Drives `POST /v1/localize` at a fixed concurrency: `concurrency` workers, each with its
/// own `VPSClient` (so its own kept-alive connection), share `requests` requests cycling
/// through `frames`. Each worker first sends one untimed warm-up request.
public enum VPSLoadGenerator {
    public struct Frame: Sendable {
        public var image: [UInt8]
        public var request: LocalizeRequest
        public init(image: [UInt8], request: LocalizeRequest) { self.image = image; self.request = request }
    }

    public static func run(baseURL: String, token: String, frames: [Frame], concurrency: Int,
                           requests: Int) async throws(VPSClientError) -> LoadReport {
        guard !frames.isEmpty, concurrency >= 1, requests >= 1 else {
            throw .invalidRequest("a load run needs frames, concurrency >= 1 and requests >= 1")
        }
        let clients = try (0..<concurrency).map { _ throws(VPSClientError) in
            try VPSClient(baseURL: baseURL, token: token, options: .init(requestTimeout: .seconds(120)))
        }
        await withTaskGroup(of: Void.self) { group in
            for (w, c) in clients.enumerated() {
                group.addTask { _ = try? await c.localize(image: frames[w % frames.count].image, request: frames[w % frames.count].request) }
            }
        }
        struct Outcome: Sendable { var latencies: [Double] = []; var errors = 0; var localized = 0; var firstError: String? }
        let clock = ContinuousClock()
        let start = clock.now
        let outcomes = await withTaskGroup(of: Outcome.self) { group in
            for (w, c) in clients.enumerated() {
                group.addTask {
                    var o = Outcome()
                    var i = w
                    while i < requests {
                        let f = frames[i % frames.count]
                        let t0 = clock.now
                        do {
                            let r = try await c.localize(image: f.image, request: f.request)
                            if r.status == .localized { o.localized += 1 }
                        } catch {
                            o.errors += 1
                            if o.firstError == nil { o.firstError = "\(error)" }
                        }
                        let d = (clock.now - t0).components
                        o.latencies.append(Double(d.seconds) * 1000 + Double(d.attoseconds) * 1e-15)
                        i += concurrency
                    }
                    return o
                }
            }
            var all: [Outcome] = []
            for await o in group { all.append(o) }
            return all
        }
        let elapsed = (clock.now - start).components
        let seconds = Double(elapsed.seconds) + Double(elapsed.attoseconds) * 1e-18
        var latencies: [Double] = []
        var errors = 0, localized = 0
        for o in outcomes { latencies += o.latencies; errors += o.errors; localized += o.localized }
        latencies.sort()
        let total = latencies.reduce(0, +)
        return LoadReport(
            concurrency: concurrency, requests: latencies.count, errors: errors, seconds: seconds,
            requestsPerSecond: Double(latencies.count) / max(seconds, 1e-9),
            p50Ms: Statistics.percentile(sorted: latencies, 50) ?? 0,
            p99Ms: Statistics.percentile(sorted: latencies, 99) ?? 0,
            meanMs: total / Double(max(1, latencies.count)),
            localized: localized, firstError: outcomes.compactMap { $0.firstError }.first)
    }
}
