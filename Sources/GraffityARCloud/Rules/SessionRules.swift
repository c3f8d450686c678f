import Geometry

/// The SDK's session rules as a pure state machine: events in, actions out, no I/O.
///
/// `GraffityARCloud` feeds it what happens — a host made or removed, `reset()`,
/// `shutdown()`, the scene and localization answers its host receives, navigation — and
/// runs the actions it returns: publish a snapshot, deliver an event, stop or reset a host,
/// end observation. The rules of the seed's page live here and nowhere else:
/// - a snapshot is published only when it differs from the last one;
/// - `reset()` goes to the host made last, and only while it is on screen;
/// - making a host stops the one before it (one active host per SDK);
/// - an HTTP 401 reports `.invalidAccessToken` and shuts the session down;
/// - shutdown publishes one final snapshot (reset, `lastError` kept, `isShutDown`) to every
///   observer, stops the host and ends observation; it is idempotent, and nothing is
///   published or delivered after it.
struct SessionRules: Sendable {
    /// A session host, as numbered by the SDK when it makes one.
    typealias HostID = Int

    /// What happened.
    enum Event: Sendable {
        /// A host was made; it becomes the current one.
        case hostMade(HostID)
        /// A host's view was removed from its parent.
        case hostRemoved(HostID)
        /// `reset()` was called.
        case resetRequested
        /// The current host dropped its fix (after a reset); `sceneReady`: its scene is loaded.
        case localizationReset(sceneReady: Bool)
        /// The host started loading the map's scene content.
        case sceneLoading
        /// The scene content arrived.
        case sceneLoaded
        /// A VPS answer placed a frame.
        case localized(frameId: String, sectionId: String, pose: Pose, inliers: Int)
        /// A VPS answer did not place a frame.
        case notLocalized(frameId: String, reason: String)
        /// A request failed beyond what the retry policy absorbs.
        case backendFailed(ARCloudError)
        /// Navigation progress changed (nil: none runs).
        case navigationChanged(NavigationState?)
        /// A discrete happening to deliver as it is (taps, collections, links, navigation).
        case happened(ARCloudEvent)
        /// `shutdown()` was called.
        case shutdownRequested
    }

    /// What the SDK must do, in order.
    enum Action: Sendable, Equatable {
        /// Publish this snapshot to the delegate, the streams and the subscriptions.
        case publish(GraffityARCloud.State)
        /// Deliver this event to the delegate and the event streams.
        case deliver(ARCloudEvent)
        /// Stop this host (its replay and any request in flight).
        case stopHost(HostID)
        /// Reset localization on this host.
        case resetHost(HostID)
        /// Release the delegate and the subscriptions (streams stay open).
        case endObservation
    }

    /// The last snapshot published.
    private(set) var state = GraffityARCloud.State.initial
    private(set) var isShutDown = false
    /// The host made last, and whether its view has been removed since.
    private(set) var currentHost: HostID?
    private var currentHostRemoved = false

    /// Applies `event` and returns the actions it calls for.
    mutating func handle(_ event: Event) -> [Action] {
        guard !isShutDown else { return [] }
        var actions: [Action] = []
        switch event {
        case .hostMade(let host):
            if let previous = currentHost, !currentHostRemoved {
                actions.append(.stopHost(previous))
                publish(&actions) { $0.isSceneReady = false; $0.vpsState = .notStarted; $0.navigation = nil }
            }
            currentHost = host
            currentHostRemoved = false
        case .hostRemoved(let host):
            guard host == currentHost, !currentHostRemoved else { break }
            currentHostRemoved = true
            publish(&actions) { $0.isSceneReady = false; $0.vpsState = .notStarted; $0.navigation = nil }
        case .resetRequested:
            if let host = currentHost, !currentHostRemoved { actions.append(.resetHost(host)) }
        case .localizationReset(let sceneReady):
            publish(&actions) { state in
                state.lastError = nil
                if sceneReady { state.vpsState = .localizing }
            }
            actions.append(.deliver(.localization(.reset)))
        case .sceneLoading:
            publish(&actions) { $0.isSceneReady = false; $0.vpsState = .initializing }
        case .sceneLoaded:
            publish(&actions) { $0.isSceneReady = true; $0.vpsState = .localizing }
        case let .localized(frameId, sectionId, pose, inliers):
            publish(&actions) { $0.vpsState = .localized(sectionId: sectionId) }
            actions.append(.deliver(.localization(.localized(frameId: frameId, sectionId: sectionId, pose: pose,
                                                            inliers: inliers))))
        case let .notLocalized(frameId, reason):
            actions.append(.deliver(.localization(.notLocalized(frameId: frameId, reason: reason))))
        case .backendFailed(let failure):
            switch failure {
            case .invalidAccessToken:
                // The token will not work again: report it, then end the session.
                actions.append(.deliver(.localization(.failed(failure))))
                publish(&actions) { $0.lastError = failure; $0.vpsState = .failed(failure) }
                actions += shutDown()
            case .frameUnavailable, .requestRejected:
                // One frame's failure: the next request tries the next frame.
                publish(&actions) { $0.lastError = failure }
                actions.append(.deliver(.localization(.failed(failure))))
            default:
                // VPS stops in `.failed` until `reset()`.
                publish(&actions) { $0.lastError = failure; $0.vpsState = .failed(failure) }
                actions.append(.deliver(.localization(.failed(failure))))
            }
        case .navigationChanged(let navigation):
            publish(&actions) { $0.navigation = navigation }
        case .happened(let happening):
            actions.append(.deliver(happening))
        case .shutdownRequested:
            actions += shutDown()
        }
        return actions
    }

    /// Publishes `state` changed by `mutate`, when it changes.
    private mutating func publish(_ actions: inout [Action], _ mutate: (inout GraffityARCloud.State) -> Void) {
        var next = state
        mutate(&next)
        guard next != state else { return }
        state = next
        actions.append(.publish(next))
    }

    private mutating func shutDown() -> [Action] {
        var actions: [Action] = []
        if let host = currentHost, !currentHostRemoved { actions.append(.stopHost(host)) }
        currentHost = nil
        publish(&actions) { $0 = GraffityARCloud.State(lastError: $0.lastError, isShutDown: true) }
        actions.append(.endObservation)
        isShutDown = true
        return actions
    }
}
