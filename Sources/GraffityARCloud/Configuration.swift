import Foundation

extension GraffityARCloud {
    /// Everything a session needs to start. A session never changes its configuration:
    /// for another map, server or token, shut it down and construct a new one.
    public struct Configuration: Sendable, Hashable {
        /// The map to localize against.
        public var mapId: String
        /// The arcloud VPS HTTP service (`http://host:port`); nil uses the embedded VPS.
        public var serverURL: URL?
        /// Bearer token for the HTTP service; unused by the embedded VPS.
        public var accessToken: String?
        /// The map file the embedded VPS loads. Required when `serverURL` is nil: there is
        /// no default location (a path relative to the working directory would depend on
        /// where the app or its tests happen to run).
        public var embeddedMapURL: URL?
        /// Time between VPS requests, on the replay clock. Between them the camera pose
        /// follows the device odometry from the last fix.
        public var vpsRequestInterval: Duration
        /// How transient backend failures are retried before they surface.
        public var retryPolicy: RetryPolicy
        /// Time allowed for one HTTP exchange (connecting included).
        public var requestTimeout: Duration
        /// How recorded sessions are replayed; see `ReplayClock`. Real time is the app's
        /// default; tests choose `.virtual` and drive the replay through
        /// `GraffityARCloud.makeVirtualReplay(session:directory:)`.
        public var clock: ReplayClock
        /// Seed for retry jitter; nil draws from the system generator. A seed makes a
        /// virtual-clock simulation against a flaky backend replay identically.
        public var jitterSeed: UInt64?
        /// Navigation radii, hint angles and how long localization may be lost.
        public var navigation: NavigationOptions

        /// A configuration; only `mapId` and a VPS (`serverURL` or `embeddedMapURL`) are needed.
        public init(mapId: String, serverURL: URL? = nil, accessToken: String? = nil,
                    embeddedMapURL: URL? = nil, vpsRequestInterval: Duration = .seconds(1),
                    retryPolicy: RetryPolicy = .default, requestTimeout: Duration = .seconds(10),
                    clock: ReplayClock = .realtime, jitterSeed: UInt64? = nil,
                    navigation: NavigationOptions = NavigationOptions()) {
            self.mapId = mapId; self.serverURL = serverURL; self.accessToken = accessToken
            self.embeddedMapURL = embeddedMapURL; self.vpsRequestInterval = vpsRequestInterval
            self.retryPolicy = retryPolicy; self.requestTimeout = requestTimeout
            self.clock = clock; self.jitterSeed = jitterSeed; self.navigation = navigation
        }

        /// Why this configuration cannot start a session, or nil when it can.
        var problem: String? {
            guard serverURL == nil, embeddedMapURL == nil else { return nil }
            return "no VPS configured: set Configuration.serverURL (the HTTP service) or Configuration.embeddedMapURL (a .vpsmap file for the embedded VPS)"
        }
    }
}

/// How a session host replays a recorded session.
public enum ReplayClock: String, Sendable, Hashable, Codable {
    /// Frames are presented at their recorded times on the continuous clock, and VPS
    /// requests run concurrently with the replay, as on a device. Retry backoff waits in
    /// real time.
    case realtime
    /// For tests. Time moves only when `VirtualReplayHost.advance(by:)` (or `runToEnd()`)
    /// moves it, and
    /// stands still while the backend works: a VPS answer is applied before the next frame.
    /// Retry backoff is accounted on a `VirtualClock` and takes no real time. The same
    /// session and answers therefore give the same sequence of states and events on
    /// every run and with every backend.
    case virtual
}
