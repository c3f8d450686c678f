import Foundation
import Support
import VPSModel

/// How `VPSServer` listens and what it tolerates.
public struct VPSServerConfiguration: Sendable {
    /// Address to bind: an IPv4 or IPv6 literal, or `localhost`.
    public var host: String
    /// Port to bind; 0 picks a free ephemeral port (read it back from `VPSServer.port`).
    public var port: UInt16
    /// Localizations that run at once: one per core by default. Each runs on its
    /// connection's own thread while fewer run; beyond, they queue for this many worker
    /// threads.
    public var localizationWorkers: Int
    /// Idle-core helper threads (`IdleCoreHelpers`) that take parts of the localizations in
    /// progress while fewer run than `localizationWorkers` (at low load, or while a client
    /// sends its next request); 0 for none. Answers are the same.
    public var idleCoreHelpers: Int
    /// Localizations that may wait for a free core; beyond this a request gets 503 with
    /// `Retry-After` at once.
    public var localizationQueue: Int
    /// A localization not answered this long after its body arrived (queue wait included)
    /// is answered 503 `time_budget_exceeded`: a queued one at once, a running one when the
    /// engine stops at its next stage (an engine that returns a result anyway is answered
    /// with it).
    public var localizationBudgetSeconds: Double
    /// Images with more pixels than this are refused from their header (422
    /// `image_too_large`). The default fits a 12 MP phone photo (4032 x 3024): a frame
    /// costs roughly its pixel count, so the cap bounds what one request can cost.
    public var maxImagePixels: Int
    /// Open connections beyond this are refused at accept. Each has a thread of its own.
    public var maxConnections: Int
    /// Open connections from one client address at most; 0 for no per-address cap (behind
    /// a load balancer every connection comes from the balancer's address).
    public var maxConnectionsPerClient: Int
    /// A connection idle this long (no bytes either way) is closed: stalled clients.
    public var connectionTimeoutSeconds: Int
    /// The whole request head must arrive within this many seconds of the connection's
    /// start (or its previous answer), however the bytes trickle in.
    public var headTimeoutSeconds: Double
    /// A request body must average at least this many bytes per second (judged after its
    /// first 2 s); slower bodies are answered 408 and closed.
    public var minBodyBytesPerSecond: Int
    /// Request bodies larger than this get 413, decided from `Content-Length` when sent
    /// and while reading otherwise.
    public var maxBodyBytes: Int
    /// `POST /scrs/geopose`: metres beyond a georeferenced map's area (its cameras' circle)
    /// from which a phone, by its GPS reading and that reading's accuracy, may still see the
    /// map; maps farther away are not tried.
    public var geoViewingReachMetres = LocationPrior.defaultReachMetres
    /// How long `stop()` waits for in-flight requests before answering what is left with
    /// 503 and closing (the drain timeout).
    public var shutdownGracePeriodSeconds: Double

    public init(host: String = "127.0.0.1", port: UInt16 = 0,
                localizationWorkers: Int = VPSServerConfiguration.defaultWorkers,
                idleCoreHelpers: Int = VPSServerConfiguration.defaultIdleCoreHelpers,
                localizationQueue: Int = 64, localizationBudgetSeconds: Double = 10,
                maxImagePixels: Int = VPSServerConfiguration.defaultMaxImagePixels,
                maxConnections: Int = 256, maxConnectionsPerClient: Int = 32,
                connectionTimeoutSeconds: Int = 15, headTimeoutSeconds: Double = 10,
                minBodyBytesPerSecond: Int = 4096, maxBodyBytes: Int = 16 << 20,
                shutdownGracePeriodSeconds: Double = 10) {
        self.host = host; self.port = port
        self.localizationWorkers = localizationWorkers; self.localizationQueue = localizationQueue
        self.idleCoreHelpers = idleCoreHelpers
        self.localizationBudgetSeconds = localizationBudgetSeconds; self.maxImagePixels = maxImagePixels
        self.maxConnections = maxConnections; self.maxConnectionsPerClient = maxConnectionsPerClient
        self.connectionTimeoutSeconds = connectionTimeoutSeconds; self.headTimeoutSeconds = headTimeoutSeconds
        self.minBodyBytesPerSecond = minBodyBytesPerSecond; self.maxBodyBytes = maxBodyBytes
        self.shutdownGracePeriodSeconds = shutdownGracePeriodSeconds
    }

    /// One per core beyond the first: a localization has at most that many other cores to
    /// borrow.
    public static var defaultIdleCoreHelpers: Int {
        max(0, Cores.available - 1)
    }

    /// 4032 x 3024, a 12 MP phone photo.
    public static let defaultMaxImagePixels = 4032 * 3024

    /// One localization per core: more would only time-slice the same cores.
    public static var defaultWorkers: Int {
        max(1, Cores.available)
    }
}
