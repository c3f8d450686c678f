import Dispatch
import Foundation
import VPSServer

struct ServeCommand: Command {
    static let name = "serve"
    static let summary = "Run the VPS HTTP service (localize, maps, scenes, health, metrics)"
    static let help = """
        USAGE: arcloud serve --maps <dir> --db <tokens-file|postgresql://…>
                             [--host 127.0.0.1] [--port 8080]
                             [--workers N] [--idle-helpers N] [--queue 64]
                             [--budget 10] [--max-megapixels 12.2] [--max-connections 256]
                             [--max-connections-per-client 32] [--timeout 15]
                             [--head-timeout 10] [--min-body-rate 4096] [--max-body-mb 16]
                             [--drain-timeout 10] [--cache-maps 4] [--map-cache-mb N]
                             [--access-log <file>|-]

        Serves the maps in <dir> (files <id>.vpsmap) over HTTP:
          POST /v1/localize           multipart: `image` (JPEG/PNG) + `request` (JSON)
          GET  /v1/maps               maps the token may use
          GET  /v1/maps/{id}/scene    sections, AR objects, navigation graph
          GET  /healthz, GET /metrics (no token needed; Prometheus text format)
        /v1 routes need `Authorization: Bearer <token>` with a token from
        `arcloud token create --db <same --db>`. Every request checks the token store, so a
        revocation applies at once; replicas that share a PostgreSQL store all honour it.

        Every connection has a thread of its own, so /healthz, /metrics and /v1/maps never
        wait behind a localization. At most --workers localizations run at once (one per
        core by default): on the connection's own thread while a core is free, else queued
        for as many worker threads. When --queue localizations wait, more get 503 with
        Retry-After. While a core is free of localizations (low load, or a client sending
        its next request), --idle-helpers threads run parts of the localizations in
        progress (ORB on the pyramid levels), so they finish sooner; the answers are the same.

        Prints the bound URL on start. One JSON line per request goes to the access log
        (stdout by default; never the token). SIGINT or SIGTERM drains: new connections
        are refused, every request already received is answered in full, /healthz says
        "draining" (503), and the process exits within --drain-timeout seconds (what is
        unanswered by then gets 503 drain_timeout).

        OPTIONS:
          --maps <dir>            Directory of .vpsmap files (required)
          --db <file|url>         Token store (required): an SQLite file, created when
                                  missing, or a PostgreSQL URL (postgresql://user@host/db)
                                  shared by every replica; its table is created when missing
          --host <address>        IPv4/IPv6 address to bind (default 127.0.0.1)
          --port <n>              Port; 0 picks a free one (default 8080)
          --workers <n>           Localizations at once (default: the cores)
          --threads <n>           Deprecated alias of --workers, kept for scripts written
                                  for 0.1 (prints a warning); it will be removed
          --idle-helpers <n>      Threads lending a free core to a localization in
                                  progress; 0 for none (default: the cores minus one)
          --queue <n>             Localizations waiting for a core at most (default 64)
          --budget <seconds>      Time budget of one localization, queue wait included;
                                  over it the answer is 503 time_budget_exceeded: at once
                                  when queued, at its next stage when running (default 10)
          --max-megapixels <n>    Larger images are refused from their header with 422
                                  image_too_large (default 12.2: a 4032x3024 phone photo)
          --max-connections <n>   Open connections at most, each a thread (default 256)
          --max-connections-per-client <n>
                                  Open connections per client address; 0 for no cap, as
                                  behind a load balancer (default 32)
          --timeout <seconds>     Close connections idle this long (default 15)
          --head-timeout <s>      The whole request head must arrive within this; trickling
                                  does not extend it (default 10; 408 JSON, then close)
          --min-body-rate <B/s>   Slowest average body upload accepted (default 4096)
          --max-body-mb <n>       Largest request body in MiB (default 16)
          --drain-timeout <s>     Longest wait for in-flight requests on SIGTERM (default 10)
          --cache-maps <n>        Maps kept loaded in memory (default 4)
          --map-cache-mb <n>      Memory the loaded maps may hold together, in MB (10^6
                                  bytes; default: no bound but --cache-maps). Maps load on
                                  their first request; what each holds is measured then
                                  (heap growth over its load). Least recently used maps
                                  are evicted to stay within it, never one a request is
                                  using: while more are in use than fit, it is exceeded
                                  until they are released. A map larger than the budget is
                                  loaded for its requests and evicted after them. /metrics
                                  counts hits, loads, evictions and the bytes held
          --access-log <file>     Append the access log to a file; `-` is stdout (default)

        EXAMPLE:
          arcloud token create --db tokens.db --name demo
          arcloud serve --maps Maps --db tokens.db --port 8080
        """
    static let options: Set<String> = ["maps", "db", "host", "port", "workers", "threads", "idle-helpers", "queue", "budget",
                                       "max-megapixels", "max-connections", "max-connections-per-client", "timeout",
                                       "head-timeout", "min-body-rate", "max-body-mb", "drain-timeout", "cache-maps",
                                       "map-cache-mb", "access-log"]
    static let switches: Set<String> = []

    /// The option that sets the localization workers: `--workers`, or `--threads`, which
    /// named connection threads in 0.1 (each connection has its own thread now) and stays
    /// for a release as a deprecated alias, with a warning, so scripts passing it still start.
    static func workersOption(_ args: Arguments) throws -> String {
        guard args.value("threads") != nil else { return "workers" }
        if args.value("workers") != nil {
            throw UsageError("options '--threads' (deprecated) and '--workers' both given: use '--workers' alone")
        }
        FileHandle.standardError.write(Data("arcloud serve: warning: '--threads' is deprecated and will be removed; use '--workers' (localizations at once)\n".utf8))
        return "threads"
    }

    static func run(_ args: Arguments) async throws -> Int32 {
        try args.noExtraPositionals(beyond: 0)
        let mapsDir = try args.require("maps")
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: mapsDir, isDirectory: &isDir), isDir.boolValue else {
            throw CommandFailure("--maps '\(mapsDir)' is not a directory")
        }
        let configuration = VPSServerConfiguration(
            host: args.value("host") ?? "127.0.0.1",
            port: UInt16(try args.int("port", default: 8080, range: 0...65535)),
            localizationWorkers: try args.int(try workersOption(args), default: VPSServerConfiguration.defaultWorkers,
                                              range: 1...256),
            idleCoreHelpers: try args.int("idle-helpers", default: VPSServerConfiguration.defaultIdleCoreHelpers, range: 0...256),
            localizationQueue: try args.int("queue", default: 64, range: 0...100_000),
            localizationBudgetSeconds: try number(args, "budget", default: 10, range: 0.01...3600),
            maxImagePixels: args.value("max-megapixels") == nil ? VPSServerConfiguration.defaultMaxImagePixels
                : Int(try number(args, "max-megapixels", default: 0, range: 0.01...1000) * 1_000_000),
            maxConnections: try args.int("max-connections", default: 256, range: 1...16_384),
            maxConnectionsPerClient: try args.int("max-connections-per-client", default: 32, range: 0...100_000),
            connectionTimeoutSeconds: try args.int("timeout", default: 15, range: 1...3600),
            headTimeoutSeconds: try number(args, "head-timeout", default: 10, range: 0.1...3600),
            minBodyBytesPerSecond: try args.int("min-body-rate", default: 4096, range: 0...1_000_000_000),
            maxBodyBytes: try args.int("max-body-mb", default: 16, range: 1...1024) << 20,
            shutdownGracePeriodSeconds: try number(args, "drain-timeout", default: 10, range: 0...3600))
        let tokens = try TokenStoreArgument.open(try args.require("db"))
        let accessLog = try openAccessLog(args.value("access-log") ?? "-")
        let budget = try args.value("map-cache-mb").map { _ in
            try args.int("map-cache-mb", default: 0, range: 1...100_000_000) * 1_000_000
        }
        let engine = MapDirectoryEngine(directory: URL(fileURLWithPath: mapsDir, isDirectory: true),
                                        cacheCapacity: try args.int("cache-maps", default: 4, range: 1...1000),
                                        cacheBudgetBytes: budget)
        let server = VPSServer(engine: engine, tokens: tokens, configuration: configuration,
                               accessLog: accessLog, version: arcloudVersion)

        // Signals are delivered to the dispatch sources, not the default handlers; SIGINT/
        // SIGTERM arrive there and are handed over as a stream. The sources exist before the
        // "listening" line, so a stop sent as soon as that line is read is never lost.
        signal(SIGINT, SIG_IGN)
        signal(SIGTERM, SIG_IGN)
        let (signals, signalled) = AsyncStream.makeStream(of: String.self)
        let sources = [(SIGINT, "SIGINT"), (SIGTERM, "SIGTERM")].map { sig, name in
            let s = DispatchSource.makeSignalSource(signal: sig, queue: .global())
            s.setEventHandler { signalled.yield(name) }
            s.resume()
            return s
        }
        do { try server.start() } catch { throw CommandFailure("\(error)") }
        print("arcloud serve: listening on \(server.baseURL) (\(engine.cache.mapIds().count) maps in \(mapsDir))")
        fflush(nil)

        var received = signals.makeAsyncIterator()
        let signalName = await received.next() ?? "signal"
        withExtendedLifetime(sources) {}
        FileHandle.standardError.write(Data("arcloud serve: \(signalName): draining \(server.requestsInFlight) request(s) and stopping\n".utf8))
        // stop() returns within the drain timeout plus one localizer stage; work that is not
        // interrupted (a map's first load) could hold it longer: the process exits anyway.
        let hardStop = configuration.shutdownGracePeriodSeconds + 5
        DispatchQueue.global().asyncAfter(deadline: .now() + hardStop) {
            FileHandle.standardError.write(Data(String(format: "arcloud serve: still stopping %.0f s after the signal; exiting\n", hardStop).utf8))
            exit(1)
        }
        server.stop()
        FileHandle.standardError.write(Data("arcloud serve: stopped\n".utf8))
        return 0
    }

    /// A decimal option within `range`, or a usage error naming it.
    private static func number(_ args: Arguments, _ name: String, default d: Double, range: ClosedRange<Double>) throws -> Double {
        let v = try args.double(name, default: d)
        guard range.contains(v) else {
            throw UsageError("option '--\(name)' needs a number in \(range.lowerBound)...\(range.upperBound), got '\(v)'")
        }
        return v
    }

    private static func openAccessLog(_ target: String) throws -> AccessLog {
        if target == "-" { return AccessLog(fileDescriptor: STDOUT_FILENO) }
        let fd = open(target, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw CommandFailure("cannot open the access log '\(target)': \(String(cString: strerror(errno)))") }
        return AccessLog(fileDescriptor: fd)
    }
}

