extension GraffityARCloud {
    /// A snapshot of the session, as published to the delegate, `stateStream()` and
    /// `subscribe(_:)`. Discrete happenings (taps, collections, links, each VPS answer)
    /// are events, not state: see `ARCloudEvent`.
    public struct State: Sendable, Hashable {
        /// True once the session host has loaded and the map's scene content is available.
        public var isSceneReady: Bool
        public var vpsState: VPSState
        /// Navigation progress, when navigation runs.
        public var navigation: NavigationState?
        /// The most recent error, if any. Kept in the snapshot `shutdown()` publishes, so
        /// an `.invalidAccessToken` that ended the session stays visible.
        public var lastError: ARCloudError?

        public init(isSceneReady: Bool = false, vpsState: VPSState = .notStarted,
                    navigation: NavigationState? = nil, lastError: ARCloudError? = nil) {
            self.isSceneReady = isSceneReady; self.vpsState = vpsState
            self.navigation = navigation; self.lastError = lastError
        }

        /// The state of a new session.
        public static let initial = State()
    }
}
