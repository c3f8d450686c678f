import Foundation
import Geodesy

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
        /// Seed for retry jitter; nil draws from the system generator. A seed makes a
        /// virtual-clock simulation against a flaky backend replay identically.
        public var jitterSeed: UInt64?
        /// Navigation radii, hint angles and how long localization may be lost.
        public var navigation: NavigationOptions
        /// The device's location, as an app passes its last GPS fix: with a georeferenced
        /// map the keyframes near it are searched first (`LocationPrior`). A replayed
        /// frame's own `gps` reading, when it has one, is sent instead. It never bends a
        /// pose: a frame the keyframes near it do not place is searched in the whole map.
        public var location: GPSReading?

        /// The clock a configuration written for 0.1 states through the deprecated `clock`;
        /// nil when it states none. The host factories refuse the one that contradicts them.
        var statedClock: ReplayClock?

        /// A configuration; only `mapId` and a VPS (`serverURL` or `embeddedMapURL`) are needed.
        /// The replay clock is not part of it: the host factory chooses it
        /// (`GraffityARCloud.makeViewController` real time, `makeVirtualReplay` stepped).
        public init(mapId: String, serverURL: URL? = nil, accessToken: String? = nil,
                    embeddedMapURL: URL? = nil, vpsRequestInterval: Duration = .seconds(1),
                    retryPolicy: RetryPolicy = .default, requestTimeout: Duration = .seconds(10),
                    jitterSeed: UInt64? = nil, navigation: NavigationOptions = NavigationOptions(),
                    location: GPSReading? = nil) {
            self.mapId = mapId; self.serverURL = serverURL; self.accessToken = accessToken
            self.embeddedMapURL = embeddedMapURL; self.vpsRequestInterval = vpsRequestInterval
            self.retryPolicy = retryPolicy; self.requestTimeout = requestTimeout
            self.jitterSeed = jitterSeed; self.navigation = navigation; self.location = location
        }

        /// A configuration stating the replay clock, as 0.1 required. The factory chooses
        /// it now. For 0.1 code, `makeViewController` on `.virtual` still makes the stepped
        /// host it made then; `makeVirtualReplay` on `.realtime` throws. Removed in 0.3.0.
        @available(*, deprecated, message: "drop 'clock:': makeViewController replays in real time, makeVirtualReplay makes a host you step with advance(by:); removed in 0.3.0")
        public init(mapId: String, serverURL: URL? = nil, accessToken: String? = nil,
                    embeddedMapURL: URL? = nil, vpsRequestInterval: Duration = .seconds(1),
                    retryPolicy: RetryPolicy = .default, requestTimeout: Duration = .seconds(10),
                    clock: ReplayClock, jitterSeed: UInt64? = nil,
                    navigation: NavigationOptions = NavigationOptions()) {
            self.init(mapId: mapId, serverURL: serverURL, accessToken: accessToken, embeddedMapURL: embeddedMapURL,
                      vpsRequestInterval: vpsRequestInterval, retryPolicy: retryPolicy, requestTimeout: requestTimeout,
                      jitterSeed: jitterSeed, navigation: navigation)
            statedClock = clock
        }

        /// The replay clock stated for 0.1 (`.realtime` when none is). As in 0.1,
        /// `makeViewController` on `.virtual` makes a stepped host (`VirtualReplayHost`);
        /// `makeVirtualReplay` on `.realtime` throws rather than give a host of the wrong
        /// kind. Removed in 0.3.0.
        @available(*, deprecated, message: "the host factory chooses the clock: makeViewController replays in real time, makeVirtualReplay makes a host you step with advance(by:); removed in 0.3.0")
        public var clock: ReplayClock {
            get { statedClock ?? .realtime }
            set { statedClock = newValue }
        }

        /// Why this configuration cannot start a session, or nil when it can.
        var problem: String? {
            guard serverURL == nil, embeddedMapURL == nil else { return nil }
            return "no VPS configured: set Configuration.serverURL (the HTTP service) or Configuration.embeddedMapURL (a .vpsmap file for the embedded VPS)"
        }
    }
}

/// How a session host replays a recorded session (`ARSessionHost.clock`). The factory that
/// makes the host decides: `GraffityARCloud.makeViewController` real time,
/// `GraffityARCloud.makeVirtualReplay` virtual.
public enum ReplayClock: String, Sendable, Hashable, Codable {
    /// Frames are presented at their recorded times on the continuous clock, and VPS
    /// requests run concurrently with the replay, as on a device. Retry backoff waits in
    /// real time.
    case realtime
    /// For tests. Time moves only when `VirtualReplayHost.advance(by:)` (or `runToEnd()`)
    /// moves it, and stands still while the backend works: a VPS answer is applied before
    /// the next frame. Retry backoff is accounted on a `VirtualClock` and takes no real
    /// time. The same session and answers therefore give the same sequence of states and
    /// events on every run and with every backend.
    case virtual
}
