import Dispatch
import Foundation
import VPSServer

struct ServeCommand: Command {
    static let name = "serve"
    static let summary = "Run the VPS HTTP service (localize, maps, scenes, health, metrics)"
    static let overview = """
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
        """

    static let epilogue = """
        EXAMPLE:
          arcloud token create --db tokens.db --name demo
          arcloud serve --maps Maps --db tokens.db --port 8080
        """

    struct Options: CommandArguments {
        let maps = Option.required("maps", .text.placeholder("<dir>"), help: "Directory of .vpsmap files")
        let db = Option.required("db", .text.placeholder("<file|url>"),
                                 help: "Token store: an SQLite file, created when missing, or a PostgreSQL URL "
                                     + "(postgresql://user@host/db) shared by every replica; its table is created when missing")
        let host = Option("host", .text.placeholder("<address>"), default: "127.0.0.1", help: "IPv4/IPv6 address to bind")
        let port = Option("port", .integer(in: 0...65535), default: 8080, help: "Port; 0 picks a free one")
        // `--threads` named connection threads in 0.1 (each connection has its own thread
        // now); it stays for a release so that scripts passing it still start.
        let workers = Option("workers", .integer(in: 1...256), default: VPSServerConfiguration.defaultWorkers,
                             help: "Localizations at once", defaultText: "the cores",
                             deprecatedAliases: [DeprecatedAlias("threads", note: "kept for scripts written for 0.1 "
                                                                     + "(prints a warning); it will be removed")])
        let idleHelpers = Option("idle-helpers", .integer(in: 0...256), default: VPSServerConfiguration.defaultIdleCoreHelpers,
                                 help: "Threads lending a free core to a localization in progress; 0 for none",
                                 defaultText: "the cores minus one")
        let queue = Option("queue", .integer(in: 0...100_000), default: 64, help: "Localizations waiting for a core at most")
        let budget = Option("budget", .number(in: 0.01...3600).placeholder("<seconds>"), default: 10,
                            help: "Time budget of one localization, queue wait included; over it the answer is 503 "
                                + "time_budget_exceeded: at once when queued, at its next stage when running")
        let maxMegapixels = Option("max-megapixels", .number(in: 0.01...1000).placeholder("<n>"),
                                   help: "Larger images are refused from their header with 422 image_too_large",
                                   defaultText: "12.2: a 4032x3024 phone photo")
        let maxConnections = Option("max-connections", .integer(in: 1...16_384), default: 256,
                                    help: "Open connections at most, each a thread")
        let maxConnectionsPerClient = Option("max-connections-per-client", .integer(in: 0...100_000), default: 32,
                                             help: "Open connections per client address; 0 for no cap, as behind a "
                                                 + "load balancer")
        let timeout = Option("timeout", .integer(in: 1...3600).placeholder("<seconds>"), default: 15,
                             help: "Close connections idle this long")
        let headTimeout = Option("head-timeout", .number(in: 0.1...3600).placeholder("<s>"), default: 10,
                                 help: "The whole request head must arrive within this; trickling does not extend it "
                                     + "(then 408 JSON, and close)")
        let minBodyRate = Option("min-body-rate", .integer(in: 0...1_000_000_000).placeholder("<B/s>"), default: 4096,
                                 help: "Slowest average body upload accepted")
        let maxBodyMB = Option("max-body-mb", .integer(in: 1...1024), default: 16, help: "Largest request body in MiB")
        let drainTimeout = Option("drain-timeout", .number(in: 0...3600).placeholder("<s>"), default: 10,
                                  help: "Longest wait for in-flight requests on SIGTERM")
        let cacheMaps = Option("cache-maps", .integer(in: 1...1000), default: 4, help: "Maps kept loaded in memory")
        let mapCacheMB = Option("map-cache-mb", .integer(in: 1...100_000_000),
                                help: "Memory the loaded maps may hold together, in MB (10^6 bytes). Maps load on their "
                                    + "first request; what each holds is measured then (heap growth over its load). "
                                    + "Least recently used maps are evicted to stay within it, never one a request is "
                                    + "using: while more are in use than fit, it is exceeded until they are released. A "
                                    + "map larger than the budget is loaded for its requests and evicted after them. "
                                    + "/metrics counts hits, loads, evictions and the bytes held",
                                defaultText: "no bound but --cache-maps")
        let accessLog = Option("access-log", .text.placeholder("<file>"), default: "-",
                               help: "Append the access log to a file; `-` is stdout")
    }

    static func run(_ args: ParsedArguments<Options>) async throws -> Int32 {
        let mapsDir = args.maps
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: mapsDir, isDirectory: &isDir), isDir.boolValue else {
            throw CommandFailure("--maps '\(mapsDir)' is not a directory")
        }
        let configuration = VPSServerConfiguration(
            host: args.host, port: UInt16(args.port),
            localizationWorkers: args.workers, idleCoreHelpers: args.idleHelpers,
            localizationQueue: args.queue, localizationBudgetSeconds: args.budget,
            maxImagePixels: args.maxMegapixels.map { Int($0 * 1_000_000) } ?? VPSServerConfiguration.defaultMaxImagePixels,
            maxConnections: args.maxConnections, maxConnectionsPerClient: args.maxConnectionsPerClient,
            connectionTimeoutSeconds: args.timeout, headTimeoutSeconds: args.headTimeout,
            minBodyBytesPerSecond: args.minBodyRate, maxBodyBytes: args.maxBodyMB << 20,
            shutdownGracePeriodSeconds: args.drainTimeout)
        let tokens = try TokenStoreLocation.open(args.db, mustExist: false)
        let accessLog = try AccessLog(target: args.accessLog)
        let engine = MapDirectoryEngine(directory: URL(fileURLWithPath: mapsDir, isDirectory: true),
                                        cacheCapacity: args.cacheMaps, cacheBudgetBytes: args.mapCacheMB.map { $0 * 1_000_000 })
        let server = VPSServer(engine: engine, tokens: tokens, configuration: configuration,
                               accessLog: accessLog, version: arcloudVersion)
        let signals = ShutdownSignals()
        do { try server.start() } catch { throw CommandFailure("\(error)") }
        print("arcloud serve: listening on \(server.baseURL) (\(engine.cache.mapIds().count) maps in \(mapsDir))")
        fflush(nil)

        let signalName = await signals.next()
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
}
