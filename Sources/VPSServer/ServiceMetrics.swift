import CMicroHTTPD
import Support
import VPSModel

/// Counters and histograms of the service, rendered in the Prometheus text format
/// (version 0.0.4) by `GET /metrics`.
///
/// - `arcloud_http_requests_total{route,method,status}`
/// - `arcloud_http_request_duration_seconds{route}` (histogram)
/// - `arcloud_localizations_total{outcome}` (`localized`, `notLocalized`, `failed`)
/// - `arcloud_localization_stage_seconds{stage}` (histogram: decode, deblur, extract, retrieve,
///   match, solve, refine, verify, total — the localizer's own timings)
/// - `arcloud_localization_queue_seconds` (histogram: wait for a worker)
/// - `arcloud_maps_loaded`, `arcloud_http_requests_in_flight`, `arcloud_localization_workers`,
///   `arcloud_localization_workers_busy`, `arcloud_localization_queue_length`,
///   `arcloud_idle_core_helpers`, `arcloud_idle_core_helper_tasks_total`
/// - the map cache's, when the engine has one: `arcloud_map_cache_hits_total`,
///   `arcloud_map_cache_loads_total`, `arcloud_map_cache_evictions_total`,
///   `arcloud_map_cache_resident_bytes`, `arcloud_map_cache_budget_bytes` (with a budget)
/// - `arcloud_build_info{version,libmicrohttpd}` and the process metrics of `ProcessMetrics`
final class ServiceMetrics: Sendable {
    /// Histogram bucket upper bounds in seconds.
    static let buckets: [Double] = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]

    private struct RequestKey: Hashable { var route: String; var method: String; var status: Int }

    fileprivate struct Histogram {
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
        var stages: [String: Histogram] = [:]
        var queueWait = Histogram()
    }

    private let state = Locked(State())
    private let version: String

    init(version: String) { self.version = version }

    /// Gauges that live elsewhere, read when `/metrics` is asked for.
    struct Gauges {
        var mapsLoaded: Int
        var inFlight: Int
        var workersBusy: Int
        var queued: Int
        var workers: Int
        var idleCoreHelpers: Int
        var idleCoreHelperTasks: Int
        var mapCache: MapCacheStatistics?
    }

    /// The localizer's stage names (`LocalizeResponse.timings`, milliseconds) that become a
    /// label; others are ignored so labels stay bounded.
    static let stageNames = Set(StageTimings().stages.map(\.name) + ["total"])

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

    /// One localization's stage timings, in milliseconds as the localizer reports them.
    func recordStages(_ milliseconds: [String: Double]) {
        state.withLock { s in
            for (stage, ms) in milliseconds where Self.stageNames.contains(stage) {
                s.stages[stage, default: Histogram()].observe(ms / 1000)
            }
        }
    }

    func recordQueueWait(_ seconds: Double) {
        state.withLock { $0.queueWait.observe(seconds) }
    }

    /// The exposition text; gauges are passed in because they live elsewhere.
    func render(gauges g: Gauges) -> String {
        let s = state.withLock { $0 }
        var out = ""
        out += "# HELP arcloud_build_info The running build (value 1).\n"
        out += "# TYPE arcloud_build_info gauge\n"
        out += "arcloud_build_info{version=\"\(Self.escaped(version))\",libmicrohttpd=\"\(Self.libraryVersion)\"} 1\n"
        out += "# HELP arcloud_http_requests_total HTTP requests by route template, method and status.\n"
        out += "# TYPE arcloud_http_requests_total counter\n"
        for (k, v) in s.requests.sorted(by: { ($0.key.route, $0.key.method, $0.key.status) < ($1.key.route, $1.key.method, $1.key.status) }) {
            out += "arcloud_http_requests_total{route=\"\(k.route)\",method=\"\(k.method)\",status=\"\(k.status)\"} \(v)\n"
        }
        out += Self.histograms("arcloud_http_request_duration_seconds",
                               "Time from request headers to the response being queued (or the connection ending).",
                               label: "route", s.durations)
        out += "# HELP arcloud_localizations_total Localizations by outcome.\n"
        out += "# TYPE arcloud_localizations_total counter\n"
        for (k, v) in s.localizations.sorted(by: { $0.key < $1.key }) {
            out += "arcloud_localizations_total{outcome=\"\(k)\"} \(v)\n"
        }
        out += Self.histograms("arcloud_localization_stage_seconds", "Time per localization stage, as the localizer measured it.",
                               label: "stage", s.stages)
        out += "# HELP arcloud_localization_queue_seconds Time a localization waited for a worker.\n"
        out += "# TYPE arcloud_localization_queue_seconds histogram\n"
        out += s.queueWait.lines(name: "arcloud_localization_queue_seconds", labels: nil)
        out += Self.gauge("arcloud_maps_loaded", "Maps currently loaded in memory.", g.mapsLoaded)
        out += Self.gauge("arcloud_http_requests_in_flight", "Requests begun and not yet completed.", g.inFlight)
        out += Self.gauge("arcloud_localization_workers", "Localizations that may run at once (one per core).", g.workers)
        out += Self.gauge("arcloud_localization_workers_busy", "Localizations running now, on connection threads or workers.", g.workersBusy)
        out += Self.gauge("arcloud_localization_queue_length", "Localizations waiting for a free core.", g.queued)
        out += Self.gauge("arcloud_idle_core_helpers", "Threads that lend a free core to localizations in progress.",
                          g.idleCoreHelpers)
        out += Self.single("arcloud_idle_core_helper_tasks_total", "Parts of localizations run by idle-core helpers.",
                           type: "counter", g.idleCoreHelperTasks)
        if let c = g.mapCache {
            out += Self.single("arcloud_map_cache_hits_total", "Localizations whose map was already in memory.",
                               type: "counter", c.hits)
            out += Self.single("arcloud_map_cache_loads_total", "Maps read from their files and prepared.",
                               type: "counter", c.loads)
            out += Self.single("arcloud_map_cache_evictions_total",
                               "Maps dropped from memory to stay within the cache's count or memory budget.",
                               type: "counter", c.evictions)
            out += Self.gauge("arcloud_map_cache_resident_bytes",
                              "Memory the maps in the cache hold, as measured when each loaded.", c.residentBytes)
            if let budget = c.budgetBytes {
                out += Self.gauge("arcloud_map_cache_budget_bytes", "The map cache's memory budget.", budget)
            }
        }
        out += ProcessMetrics.current().exposition
        return out
    }

    /// A histogram family with one label, its series in label order.
    private static func histograms(_ name: String, _ help: String, label: String, _ series: [String: Histogram]) -> String {
        var out = "# HELP \(name) \(help)\n# TYPE \(name) histogram\n"
        for (value, h) in series.sorted(by: { $0.key < $1.key }) {
            out += h.lines(name: name, labels: "\(label)=\"\(value)\"")
        }
        return out
    }

    private static func gauge(_ name: String, _ help: String, _ value: Int) -> String {
        single(name, help, type: "gauge", value)
    }

    /// A metric with one unlabelled sample.
    private static func single(_ name: String, _ help: String, type: String, _ value: Int) -> String {
        "# HELP \(name) \(help)\n# TYPE \(name) \(type)\n\(name) \(value)\n"
    }

    private static func escaped(_ s: String) -> String {
        s.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            .replacingOccurrences(of: "\n", with: "\\n")
    }

    /// The libmicrohttpd actually loaded (not the header compiled against).
    private static let libraryVersion: String = MHD_get_version().map { String(cString: $0) } ?? "unknown"
}

private extension ServiceMetrics.Histogram {
    /// The `_bucket`, `_sum` and `_count` lines of one labelled series.
    func lines(name: String, labels: String?) -> String {
        let prefix = labels.map { $0 + "," } ?? ""
        let plain = labels.map { "{\($0)}" } ?? ""
        var out = ""
        for (i, b) in ServiceMetrics.buckets.enumerated() {
            out += "\(name)_bucket{\(prefix)le=\"\(b)\"} \(counts[i])\n"
        }
        out += "\(name)_bucket{\(prefix)le=\"+Inf\"} \(count)\n"
        out += "\(name)_sum\(plain) \(sum)\n"
        out += "\(name)_count\(plain) \(count)\n"
        return out
    }
}
