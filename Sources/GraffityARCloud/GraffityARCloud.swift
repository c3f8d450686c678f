import Foundation
import VPSModel

/// A GraffityARCloud session: localizes a camera against a map through a VPS and
/// publishes the session's state and events.
///
/// A Linux port of the GraffityARCloud SDK's state model. Construct it, make a session
/// host with `makeViewController(session:images:)`, load the host, and observe:
///
/// ```swift
/// let sdk = GraffityARCloud(configuration: .init(mapId: "gallery",
///     serverURL: URL(string: "http://127.0.0.1:8080"), accessToken: token))
/// let observation = Task { @MainActor in
///     for await state in sdk.stateStream() {
///         if case .localized(let section) = state.vpsState { print("in", section) }
///     }
/// }
/// let host = try sdk.makeViewController(session: recording, directory: folder)
/// try await host.loadView()
/// // ... later:
/// observation.cancel()
/// await sdk.shutdown()
/// host.removeFromParent()
/// ```
///
/// The host factory chooses the replay clock, once: `makeViewController` replays in real
/// time, as on a phone; `makeVirtualReplay` makes a `VirtualReplayHost` whose time moves
/// only when its `advance(by:)` moves it, for tests that need the same states on every run.
/// Either host becomes the one `reset()` routes to.
///
/// Everything runs on the main actor. Observers get state three ways, with the same
/// semantics (the current snapshot first, then each distinct change): the `delegate`,
/// `stateStream()`, and `subscribe(_:)` (Combine's `statePublisher` on Apple platforms).
/// Discrete events go to the delegate and `eventStream()`.
///
/// Transient backend failures are retried under `Configuration.retryPolicy` and stay
/// invisible until the policy gives up. An HTTP 401 sets `lastError` to
/// `.invalidAccessToken` and shuts the session down; there is no in-place token rotation.
/// Every observer's last snapshot is the shutdown one (`State.isShutDown`).
@MainActor
public final class GraffityARCloud {
    /// The configuration this session was made with; never replaced.
    public let configuration: Configuration
    /// The current snapshot.
    public var state: State { rules.state }
    /// True after `shutdown()` (or after a rejected token shut the session down).
    public var isShutDown: Bool { rules.isShutDown }

    /// Receives state changes and events. Held weakly; nil after `shutdown()`, and
    /// assignments after `shutdown()` are ignored.
    public var delegate: (any GraffityARCloudDelegate)? {
        get { storedDelegate }
        set { if !isShutDown { storedDelegate = newValue } }
    }

    /// The backend every host uses; each host wraps it in the retry policy on its own clock.
    private let baseBackend: any VPSBackend
    /// Retry jitter, shared by the hosts so a seeded session draws one sequence.
    private let jitter: JitterSource
    /// Why this session cannot make hosts (a configuration naming no VPS), if it cannot.
    private let setupProblem: String?
    private weak var storedDelegate: (any GraffityARCloudDelegate)?
    /// The host most recently made; `reset()` routes here. Weak: the app owns its host,
    /// as a view hierarchy owns a view controller.
    private weak var currentHost: ARSessionHost?
    /// The session's rules (`SessionRules`): what each event publishes, delivers, stops.
    private var rules = SessionRules()
    /// The number the next host gets in `rules`.
    private var nextHostID = 0
    private let states = Broadcast<State>()
    private let events = Broadcast<ARCloudEvent>()

    /// A session served by the embedded VPS (no `serverURL`) or the HTTP service.
    /// A configuration with neither a server nor a map file is refused by the first
    /// `makeViewController` call, with the reason.
    public convenience init(configuration: Configuration) {
        self.init(configuration: configuration, backend: Self.makeBackend(for: configuration),
                  setupProblem: configuration.problem)
    }

    /// A session served by `backend` (a custom transport, or a test double), still under
    /// the configuration's retry policy.
    public convenience init(configuration: Configuration, backend: any VPSBackend) {
        self.init(configuration: configuration, backend: backend, setupProblem: nil)
    }

    private init(configuration: Configuration, backend: any VPSBackend, setupProblem: String?) {
        self.configuration = configuration
        self.setupProblem = setupProblem
        self.baseBackend = backend
        self.jitter = configuration.jitterSeed.map(JitterSource.seeded) ?? .system
    }

    /// The backend as a host on `clock` uses it: retried under the configuration's policy,
    /// with backoff waited on that clock (a `VirtualClock` takes no real time).
    func retryingBackend(on clock: ReplayClock) -> any VPSBackend {
        switch clock {
        case .realtime:
            RetryingBackend(base: baseBackend, policy: configuration.retryPolicy, clock: ContinuousClock(), jitter: jitter)
        case .virtual:
            RetryingBackend(base: baseBackend, policy: configuration.retryPolicy, clock: VirtualClock(), jitter: jitter)
        }
    }

    /// The backend a configuration selects, before retries are added: the HTTP service at
    /// `serverURL`, else the embedded VPS on `embeddedMapURL`.
    public static func makeBackend(for configuration: Configuration) -> any VPSBackend {
        guard let server = configuration.serverURL else {
            guard let mapURL = configuration.embeddedMapURL else {
                return UnconfiguredBackend(problem: configuration.problem ?? "no VPS configured")
            }
            return EmbeddedVPSBackend(mapId: configuration.mapId, mapURL: mapURL)
        }
        return HTTPVPSBackend(serverURL: server, accessToken: configuration.accessToken,
                              requestTimeout: configuration.requestTimeout)
    }

    // MARK: Observation

    /// A new, independent stream of snapshots: the current one at once, then every
    /// distinct change. Each call has its own continuation, removed when the stream
    /// terminates (cancel the task iterating it). `shutdown()` publishes a final snapshot
    /// with `isShutDown == true` but does not finish the stream (the phone SDK's rule):
    /// end your loop on that snapshot, or cancel the task. A stream made after shutdown
    /// yields that snapshot.
    public func stateStream() -> AsyncStream<State> {
        states.makeStream(startingWith: state)
    }

    /// A new, independent stream of discrete events from now on (no replay of past ones).
    public func eventStream() -> AsyncStream<ARCloudEvent> {
        events.makeStream(startingWith: nil)
    }

    /// Calls `handler` with the current snapshot now, then with every distinct change,
    /// until the returned subscription is cancelled or released (the `statePublisher`
    /// semantics of the Apple SDK). The last call is the shutdown snapshot
    /// (`isShutDown == true`); after `shutdown()` a new subscription gets that snapshot
    /// once and nothing more.
    public func subscribe(_ handler: @escaping @MainActor @Sendable (State) -> Void) -> StateSubscription {
        handler(state)
        guard !isShutDown else { return .finished() }
        let id = states.addHandler(handler)
        let states = self.states
        return StateSubscription { states.removeHandler(id) }
    }

    /// Stream and closure subscribers of the state currently registered (diagnostics).
    public var stateObserverCount: Int { states.subscriberCount }

    // MARK: Session

    /// Makes the session host (the "view controller") that replays `session` in real time,
    /// reading frame images from `images`: after `loadView()` its frames come at their
    /// recorded times and VPS requests overlap the replay, as on a phone. The new host
    /// becomes the one `reset()` routes to; a previous host stops (keep one active host per
    /// SDK). For a host whose time you step, use `makeVirtualReplay(session:images:)`.
    /// - Throws: `ARCloudError.sessionShutDown`; `.invalidUsage` for a session every reader
    ///   refuses (`RecordedSession.contentProblems`: invalid intrinsics, no frames, a time the
    ///   replay clock cannot hold, more script actions than `ScriptLimits.maxActions`), a
    ///   configuration that names no VPS.
    ///
    /// A configuration that states the deprecated `clock: .virtual` gets the host it got in
    /// 0.1: a `VirtualReplayHost`, whose time moves only when `runToEnd()` (or
    /// `advance(by:)`) moves it. That path goes in 0.3.0; `makeVirtualReplay` is its
    /// replacement.
    public func makeViewController(session: RecordedSession, images: any FrameImageSource) throws -> ARSessionHost {
        if configuration.statedClock == .virtual {
            return try makeVirtualReplay(session: session, images: images)
        }
        return try install(session, clock: .realtime) { ARSessionHost(sdk: self, session: session, images: images, clock: $0) }
    }

    /// Makes the session host for a recorded session stored in `directory`.
    public func makeViewController(session: RecordedSession, directory: URL) throws -> ARSessionHost {
        try makeViewController(session: session, images: DirectoryFrameImages(directory: directory))
    }

    /// Makes the session host (the "view controller") for tests: the same host as
    /// `makeViewController(session:images:)`, registered the same way (`reset()` routes to
    /// the latest host of either factory), but its time moves only when
    /// `VirtualReplayHost.advance(by:)` or `runToEnd()` moves it, and each VPS answer is
    /// applied before the next frame, so a run gives the same states every time.
    /// - Throws: as `makeViewController(session:images:)`, and `.invalidUsage` for a
    ///   configuration that states the deprecated `clock: .realtime`.
    public func makeVirtualReplay(session: RecordedSession, images: any FrameImageSource) throws -> VirtualReplayHost {
        // A configuration stating the real-time clock would have it believe it got a
        // real-time host (0.1 had no stepped factory to call instead).
        if configuration.statedClock == .realtime {
            throw ARCloudError.invalidUsage("the configuration states clock .realtime, which no longer chooses the clock: "
                + "use makeViewController(session:images:) for a real-time host, or drop 'clock:' to step this one")
        }
        return try install(session, clock: .virtual) { VirtualReplayHost(sdk: self, session: session, images: images, clock: $0) }
    }

    /// Makes a virtual-clock session host for a recorded session stored in `directory`.
    public func makeVirtualReplay(session: RecordedSession, directory: URL) throws -> VirtualReplayHost {
        try makeVirtualReplay(session: session, images: DirectoryFrameImages(directory: directory))
    }

    /// Checks that a host for `session` may start, stops the previous one, and makes the new
    /// host (on `clock`) current.
    private func install<Host: ARSessionHost>(_ session: RecordedSession, clock: ReplayClock,
                                              _ make: (ReplayClock) -> Host) throws -> Host {
        guard !isShutDown else { throw ARCloudError.sessionShutDown }
        if let setupProblem { throw ARCloudError.invalidUsage(setupProblem) }
        // What every reader of a session refuses (camera, no frames, times, script length).
        if let problem = session.contentProblems.first {
            throw ARCloudError.invalidUsage("the recorded session's \(problem.location) is invalid: \(problem.message)")
        }
        let id = nextHostID
        nextHostID += 1
        apply(.hostMade(id))  // stops the previous host, which is still `currentHost` here
        let host = make(clock)
        host.hostID = id
        currentHost = host
        return host
    }

    /// Resets localization on the host most recently made: after its view has loaded, it
    /// pauses the replay, drops the fix (back to `.localizing`, `lastError` cleared) and
    /// resumes. Before the view loads, with no host, or after shutdown, it has no effect
    /// (as on the phone SDK, `await sdk.reset()` does not throw; a shut-down session says so
    /// in `state.isShutDown`). It never replaces the SDK or its configuration.
    public func reset() async {
        for action in rules.handle(.resetRequested) {
            if case .resetHost(let id) = action, let host = currentHost, host.hostID == id {
                await host.resetLocalization()
            }
        }
    }

    /// Ends the session for good: stops the host (cancelling any request in flight),
    /// publishes the final snapshot — reset, `lastError` kept, `isShutDown == true` — to
    /// the delegate, streams and subscriptions alike, then removes the delegate and stops
    /// publishing. Streams are not finished (the phone SDK's rule): end observation on the
    /// `isShutDown` snapshot or cancel your tasks. Idempotent; later calls that would
    /// change the session throw `ARCloudError.sessionShutDown` and change nothing.
    public func shutdown() async {
        apply(.shutdownRequested)
    }

    // MARK: Navigation

    /// Starts turn-by-turn guidance to the navigation-graph node `destination` on the host
    /// most recently made. The route is planned by A* from the node nearest the localized
    /// camera (at once, or at the first fix when not localized yet); `state.navigation`
    /// follows the camera's progress frame by frame, and navigation events report the
    /// start, each waypoint passed, arrival, or failure (unknown destination, no route,
    /// localization lost longer than `NavigationOptions.lostLocalizationTimeout`).
    /// Guidance already running is stopped first.
    /// - Throws: `ARCloudError.sessionShutDown`; `.hostNotLoaded` without a loaded host.
    public func startNavigation(to destination: String) throws {
        guard !isShutDown else { throw ARCloudError.sessionShutDown }
        guard let host = currentHost else { throw ARCloudError.hostNotLoaded }
        try host.startNavigation(to: destination)
    }

    /// Ends guidance (a `.stopped` navigation event; `state.navigation` becomes nil).
    /// No effect when none runs.
    /// - Throws: `ARCloudError.sessionShutDown`.
    public func stopNavigation() throws {
        guard !isShutDown else { throw ARCloudError.sessionShutDown }
        guard let host = currentHost, host.isViewLoaded, !host.isRemoved else { return }
        try host.stopNavigation()
    }

    // MARK: Internal: the rules' actions

    /// Hands `event` to the rules and carries out what they return.
    func apply(_ event: SessionRules.Event) {
        for action in rules.handle(event) {
            switch action {
            case .publish(let snapshot):
                storedDelegate?.graffityARCloud(self, didChangeState: snapshot)
                states.send(snapshot)
            case .deliver(let event):
                deliver(event)
            case .stopHost(let id):
                if let host = currentHost, host.hostID == id { host.stop() }
            case .resetHost:
                break  // `reset()` awaits it itself
            case .endObservation:
                currentHost = nil
                storedDelegate = nil
                // State bridging ends here: closures are released, streams stay open.
                states.removeAllHandlers()
                events.removeAllHandlers()
            }
        }
    }

    /// Delivers a discrete event to the delegate and the event streams.
    private func deliver(_ event: ARCloudEvent) {
        if let delegate = storedDelegate {
            switch event {
            case .localization(let e): delegate.graffityARCloud(self, didUpdateLocalization: e)
            case .tap(let e): delegate.graffityARCloud(self, didTap: e)
            case .collection(let e): delegate.graffityARCloud(self, didCollect: e)
            case .link(let e): delegate.graffityARCloud(self, didOpenLink: e)
            case .navigation(let e): delegate.graffityARCloud(self, didUpdateNavigation: e)
            }
        }
        events.send(event)
    }
}
