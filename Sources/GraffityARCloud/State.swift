extension GraffityARCloud {
    /// A snapshot of the session, as published to the delegate, `stateStream()` and
    /// `subscribe(_:)`. Discrete happenings (taps, collections, links, each VPS answer)
    /// are events, not state: see `ARCloudEvent`.
    ///
    /// Shutdown is part of the snapshot: the last snapshot every observer receives has
    /// `isShutDown == true` (with `lastError` kept, e.g. `.invalidAccessToken` after a
    /// rejected token). Streams are not finished by shutdown, as on the phone SDK, so an
    /// observer ends its loop on that snapshot:
    ///
    /// ```swift
    /// for await state in sdk.stateStream() {
    ///     render(state)
    ///     if state.isShutDown { break }
    /// }
    /// ```
    public struct State: Sendable, Hashable {
        /// True once the session host has loaded and the map's scene content is available.
        public var isSceneReady: Bool
        /// Where the visual positioning of the session stands.
        public var vpsState: VPSState
        /// Navigation progress, when navigation runs.
        public var navigation: NavigationState?
        /// The most recent error, if any. Kept in the snapshot `shutdown()` publishes, so
        /// an `.invalidAccessToken` that ended the session stays visible.
        public var lastError: ARCloudError?
        /// True in the final snapshot, published once when the session shuts down
        /// (`shutdown()`, or a rejected access token). Nothing is published after it.
        public var isShutDown: Bool

        /// A snapshot with the given fields.
        public init(isSceneReady: Bool = false, vpsState: VPSState = .notStarted,
                    navigation: NavigationState? = nil, lastError: ARCloudError? = nil,
                    isShutDown: Bool = false) {
            self.isSceneReady = isSceneReady; self.vpsState = vpsState
            self.navigation = navigation; self.lastError = lastError; self.isShutDown = isShutDown
        }

        /// The state of a new session.
        public static let initial = State()
    }
}

extension GraffityARCloud.State: CustomStringConvertible {
    /// One line for logs, e.g. `State(sceneReady, localized(sectionId: "hall"))`, without
    /// the module-qualified type name a default description would print.
    public var description: String {
        var parts = [isSceneReady ? "sceneReady" : "sceneNotReady", "\(vpsState)"]
        if let navigation { parts.append("navigation: \(navigation.destination)") }
        if let lastError { parts.append("lastError: \(lastError)") }
        if isShutDown { parts.append("shutDown") }
        return "State(\(parts.joined(separator: ", ")))"
    }
}
