import Foundation
import Geometry
import VPSModel

/// Navigation in progress on a host.
struct ActiveNavigation {
    var destination: String
    /// Nil until the camera is localized and a route is planned.
    var follower: RouteFollower?
    /// Replay time of the last accepted fix, or of the start or the last reset if later:
    /// navigation fails when it falls too far behind.
    var lastFixTime: Duration
}

extension ARSessionHost {
    /// Starts guidance to node `destination` (replacing guidance in progress, which reports
    /// `.stopped`). The route is planned by A* from the node nearest the camera, at once
    /// when the camera is localized, else at the first fix. An unknown destination or a
    /// graph with no way there ends in a `.failed` navigation event, not an error.
    /// - Throws: `ARCloudError.sessionShutDown`, `.hostRemoved`, `.hostNotLoaded`.
    func startNavigation(to destination: String) throws {
        try checkUsable()
        guard isViewLoaded else { throw ARCloudError.hostNotLoaded }
        stopActiveNavigation()
        guard let scene else {
            return failNavigation(destination, "the scene is not ready")
        }
        guard scene.navigation.nodes.contains(where: { $0.id == destination }) else {
            return failNavigation(destination, RoutePlanningError.unknownNode(destination).description)
        }
        activeNavigation = ActiveNavigation(destination: destination, follower: nil, lastFixTime: replayTime)
        sdk.apply(.navigationChanged(NavigationState(destination: destination)))
        updateNavigation()
    }

    /// Ends guidance (a `.stopped` event, `state.navigation` nil). No effect without any.
    /// - Throws: `ARCloudError.sessionShutDown`, `.hostRemoved`, `.hostNotLoaded`.
    func stopNavigation() throws {
        try checkUsable()
        guard isViewLoaded else { throw ARCloudError.hostNotLoaded }
        stopActiveNavigation()
    }

    /// Called for every presented frame and after every fix: plans the route once there
    /// is a pose, advances guidance along it, and gives up when the fix is too old.
    func updateNavigation() {
        guard var nav = activeNavigation, isRunning else { return }
        if nav.follower?.hasArrived == true { return }
        // Rounded as frame times are, so a 1.2 s timeout means 1.2 s of frames.
        let timeout = sdk.configuration.navigation.lostLocalizationTimeout.roundedToMicroseconds
        if replayTime - nav.lastFixTime > timeout {
            return failNavigation(nav.destination, "localization lost for more than \(String(format: "%g", timeout.seconds)) s")
        }
        guard let pose = cameraPose, let graph = scene?.navigation else { return }
        if nav.follower == nil {
            let route: Route
            do { route = try RoutePlanner(graph: graph).route(from: pose.translation, to: nav.destination) } catch {
                return failNavigation(nav.destination, error.description)
            }
            nav.follower = RouteFollower(route: route, options: sdk.configuration.navigation.followerOptions)
            activeNavigation = nav
            sdk.apply(.happened(.navigation(.started(destination: nav.destination, route: route.nodeIds))))
        }
        guard let progress = activeNavigation?.follower?.update(cameraPose: pose) else { return }
        for node in progress.passed { sdk.apply(.happened(.navigation(.waypointReached(nodeId: node)))) }
        sdk.apply(.navigationChanged(NavigationState(progress, destination: nav.destination)))
        if progress.hasArrived { sdk.apply(.happened(.navigation(.arrived(destination: nav.destination)))) }
    }

    /// A VPS fix was accepted: guidance is fresh again, and moves to the corrected pose.
    func navigationDidGetFix() {
        activeNavigation?.lastFixTime = replayTime
        updateNavigation()
    }

    /// `reset()` dropped the fix: the lost-localization clock restarts from now.
    func navigationDidLoseFix() {
        activeNavigation?.lastFixTime = replayTime
    }

    private func failNavigation(_ destination: String, _ reason: String) {
        activeNavigation = nil
        sdk.apply(.navigationChanged(nil))
        sdk.apply(.happened(.navigation(.failed(destination: destination, reason: reason))))
    }

    /// Stops guidance in progress, if any, with a `.stopped` event.
    private func stopActiveNavigation() {
        guard let nav = activeNavigation else { return }
        activeNavigation = nil
        sdk.apply(.navigationChanged(nil))
        sdk.apply(.happened(.navigation(.stopped(destination: nav.destination))))
    }
}

extension NavigationState {
    /// The published form of a follower's progress (distance to the centimetre, so a
    /// camera standing still does not publish new snapshots).
    init(_ progress: RouteFollower.Progress, destination: String) {
        let hint: NavigationHint?
        if progress.hasArrived {
            hint = .arrived
        } else {
            switch progress.turn {
            case .straight?: hint = .continueStraight
            case .left?: hint = .turnLeft
            case .right?: hint = .turnRight
            case .around?: hint = .turnAround
            case nil: hint = nil
            }
        }
        self.init(destination: destination, remainingWaypoints: progress.remainingWaypoints,
                  remainingDistance: (progress.remainingDistance * 100).rounded() / 100,
                  hint: hint, hasArrived: progress.hasArrived)
    }
}
