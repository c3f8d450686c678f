import Synchronization

/// Counters and histograms of the service, rendered in the Prometheus text format
/// (version 0.0.4) by `GET /metrics`.
///
/// - `arcloud_http_requests_total{route,method,status}`
/// - `arcloud_http_request_duration_seconds{route}` (histogram)
/// - `arcloud_localizations_total{outcome}` (`localized`, `notLocalized`, `failed`)
/// - `arcloud_maps_loaded`, `arcloud_http_requests_in_flight`
final class ServiceMetrics: Sendable {
    /// Histogram bucket upper bounds in seconds.
    static let buckets: [Double] = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]

    private struct RequestKey: Hashable { var route: String; var method: String; var status: Int }

    private struct Histogram {
        var counts = [Int](repeating: 0, count: ServiceMetrics.buckets.count)
        var sum = 0.0
        var count = 0

        mutating func observe(_ seconds: Double) {
            for (i, b) in ServiceMetrics.buckets.enumerated() where seconds <= b { counts[i] += 1 }
            sum += seconds
            count += 1
        }
    }

    private struct State {
        var requests: [RequestKey: Int] = [:]
        var durations: [String: Histogram] = [:]
        var localizations: [String: Int] = ["localized": 0, "notLocalized": 0, "failed": 0]
    }

    private let state = Mutex(State())

    /// Methods outside this set are counted as `OTHER` so labels stay bounded.
    private static let knownMethods: Set<String> = ["GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS"]

    func recordRequest(route: String, method: String, status: Int, seconds: Double) {
        let m = Self.knownMethods.contains(method) ? method : "OTHER"
        state.withLock {
            $0.requests[RequestKey(route: route, method: m, status: status), default: 0] += 1
            $0.durations[route, default: Histogram()].observe(seconds)
        }
    }

    func recordLocalization(outcome: String) {
        state.withLock { $0.localizations[outcome, default: 0] += 1 }
    }

    /// The exposition text; gauges are passed in because they live elsewhere.
    func render(mapsLoaded: Int, inFlight: Int) -> String {
        let s = state.withLock { $0 }
        var out = ""
        out += "# HELP arcloud_http_requests_total HTTP requests by route template, method and status.\n"
        out += "# TYPE arcloud_http_requests_total counter\n"
        for (k, v) in s.requests.sorted(by: { ($0.key.route, $0.key.method, $0.key.status) < ($1.key.route, $1.key.method, $1.key.status) }) {
            out += "arcloud_http_requests_total{route=\"\(k.route)\",method=\"\(k.method)\",status=\"\(k.status)\"} \(v)\n"
        }
        out += "# HELP arcloud_http_request_duration_seconds Time from request headers to the response being queued (or the connection ending).\n"
        out += "# TYPE arcloud_http_request_duration_seconds histogram\n"
        for (route, h) in s.durations.sorted(by: { $0.key < $1.key }) {
            for (i, b) in Self.buckets.enumerated() {
                out += "arcloud_http_request_duration_seconds_bucket{route=\"\(route)\",le=\"\(b)\"} \(h.counts[i])\n"
            }
            out += "arcloud_http_request_duration_seconds_bucket{route=\"\(route)\",le=\"+Inf\"} \(h.count)\n"
            out += "arcloud_http_request_duration_seconds_sum{route=\"\(route)\"} \(h.sum)\n"
            out += "arcloud_http_request_duration_seconds_count{route=\"\(route)\"} \(h.count)\n"
        }
        out += "# HELP arcloud_localizations_total Localizations by outcome.\n"
        out += "# TYPE arcloud_localizations_total counter\n"
        for (k, v) in s.localizations.sorted(by: { $0.key < $1.key }) {
            out += "arcloud_localizations_total{outcome=\"\(k)\"} \(v)\n"
        }
        out += "# HELP arcloud_maps_loaded Maps currently loaded in memory.\n"
        out += "# TYPE arcloud_maps_loaded gauge\n"
        out += "arcloud_maps_loaded \(mapsLoaded)\n"
        out += "# HELP arcloud_http_requests_in_flight Requests begun and not yet completed.\n"
        out += "# TYPE arcloud_http_requests_in_flight gauge\n"
        out += "arcloud_http_requests_in_flight \(inFlight)\n"
        return out
    }
}
