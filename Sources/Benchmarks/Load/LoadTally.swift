/// What a load generator's requests came to: each client thread keeps one, and the run
/// merges them. Used by `VPSLoadGenerator` and by `bench serve`'s sliced load.
public struct LoadTally: Sendable {
    /// Milliseconds from sending each request to reading its answer, in the order answered.
    public private(set) var latenciesMs: [Double] = []
    /// Answers that said `localized`.
    public private(set) var localized = 0
    /// Requests that failed (no answer, or a status other than 200).
    public private(set) var errors = 0
    /// The first failure, for the report.
    public private(set) var firstError: String?
    /// CPU seconds of the client threads that sent them.
    public var clientCPUSeconds = 0.0

    public init() {}

    /// Requests answered (or failed).
    public var requests: Int { latenciesMs.count }

    /// Counts one request.
    public mutating func record(_ outcome: VPSLoadConnection.Outcome, latencyMs: Double) {
        latenciesMs.append(latencyMs)
        if outcome.localized { localized += 1 }
        if let failure = outcome.failure {
            errors += 1
            firstError = firstError ?? failure
        }
    }

    /// Adds another thread's (or slice's) requests to these.
    public mutating func merge(_ other: LoadTally) {
        latenciesMs += other.latenciesMs
        localized += other.localized
        errors += other.errors
        firstError = firstError ?? other.firstError
        clientCPUSeconds += other.clientCPUSeconds
    }
}
