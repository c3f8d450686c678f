import Geometry
import Testing
@testable import GraffityARCloud

/// The SDK's rules on the state machine alone: no image, clock, host or server.
@Suite struct SessionRulesTests {
    typealias State = GraffityARCloud.State
    static let pose = Pose(rotation: .identity, translation: SIMD3(1, 2, 3))

    /// A session with host 0 made and its scene loaded.
    static func loaded() -> SessionRules {
        var rules = SessionRules()
        _ = rules.handle(.hostMade(0))
        _ = rules.handle(.sceneLoading)
        _ = rules.handle(.sceneLoaded)
        return rules
    }

    @Test func loadingTheSceneGoesInitializingThenLocalizing() {
        var rules = SessionRules()
        #expect(rules.handle(.hostMade(0)).isEmpty, "the first host has nothing to stop and changes no snapshot")
        #expect(rules.handle(.sceneLoading) == [.publish(State(vpsState: .initializing))])
        #expect(rules.handle(.sceneLoaded) == [.publish(State(isSceneReady: true, vpsState: .localizing))])
    }

    @Test func aFixPublishesLocalizedOnceAndDeliversEveryAnswer() {
        var rules = Self.loaded()
        let fix = SessionRules.Event.localized(frameId: "f1", sectionId: "hall", pose: Self.pose, inliers: 80)
        let placed = State(isSceneReady: true, vpsState: .localized(sectionId: "hall"))
        let event = ARCloudEvent.localization(.localized(frameId: "f1", sectionId: "hall", pose: Self.pose, inliers: 80))
        #expect(rules.handle(fix) == [.publish(placed), .deliver(event)])
        // The same snapshot again is not published: only the event goes out.
        #expect(rules.handle(fix) == [.deliver(event)])
        #expect(rules.handle(.notLocalized(frameId: "f2", reason: "too few inliers"))
                == [.deliver(.localization(.notLocalized(frameId: "f2", reason: "too few inliers")))])
    }

    @Test func resetGoesToTheHostMadeLastWhileItIsOnScreen() {
        var rules = SessionRules()
        #expect(rules.handle(.resetRequested).isEmpty, "no host: nothing to reset")
        _ = rules.handle(.hostMade(0))
        #expect(rules.handle(.resetRequested) == [.resetHost(0)])
        let replaced = rules.handle(.hostMade(1))
        #expect(replaced.first == .stopHost(0), "making a host stops the one before it")
        #expect(rules.handle(.resetRequested) == [.resetHost(1)])
        _ = rules.handle(.hostRemoved(0))
        #expect(rules.handle(.resetRequested) == [.resetHost(1)], "removing an earlier host changes nothing")
        _ = rules.handle(.hostRemoved(1))
        #expect(rules.handle(.resetRequested).isEmpty, "a removed host is not reset")
    }

    @Test func aResetClearsTheErrorAndReportsIt() {
        var rules = Self.loaded()
        let down = ARCloudError.backendUnavailable("503")
        _ = rules.handle(.backendFailed(down))
        #expect(rules.state.vpsState == .failed(down) && rules.state.lastError == down)
        #expect(rules.handle(.localizationReset(sceneReady: true))
                == [.publish(State(isSceneReady: true, vpsState: .localizing)), .deliver(.localization(.reset))])
    }

    @Test func aFailedFrameKeepsLocalizingAndAFailedBackendStopsVPS() {
        var rules = Self.loaded()
        let frame = ARCloudError.frameUnavailable(frameId: "f3", reason: "unreadable")
        #expect(rules.handle(.backendFailed(frame))
                == [.publish(State(isSceneReady: true, vpsState: .localizing, lastError: frame)),
                    .deliver(.localization(.failed(frame)))])
        let down = ARCloudError.backendUnavailable("503")
        #expect(rules.handle(.backendFailed(down))
                == [.publish(State(isSceneReady: true, vpsState: .failed(down), lastError: down)),
                    .deliver(.localization(.failed(down)))])
    }

    @Test func aRejectedTokenReportsItThenShutsDownForGood() {
        var rules = Self.loaded()
        let actions = rules.handle(.backendFailed(.invalidAccessToken))
        let final = State(lastError: .invalidAccessToken, isShutDown: true)
        #expect(actions == [.deliver(.localization(.failed(.invalidAccessToken))),
                            .publish(State(isSceneReady: true, vpsState: .failed(.invalidAccessToken),
                                           lastError: .invalidAccessToken)),
                            .stopHost(0), .publish(final), .endObservation])
        #expect(rules.isShutDown && rules.state == final)
        #expect(rules.handle(.sceneLoaded).isEmpty && rules.handle(.resetRequested).isEmpty)
    }

    @Test func shutdownPublishesOneFinalSnapshotAndIsIdempotent() {
        var rules = Self.loaded()
        _ = rules.handle(.navigationChanged(NavigationState(destination: "exit")))
        let actions = rules.handle(.shutdownRequested)
        #expect(actions == [.stopHost(0), .publish(State(isShutDown: true)), .endObservation])
        #expect(rules.handle(.shutdownRequested).isEmpty, "a second shutdown does nothing")
        #expect(rules.handle(.happened(.localization(.reset))).isEmpty, "nothing is delivered after shutdown")
        #expect(rules.handle(.hostMade(1)).isEmpty)
        #expect(rules.state == State(isShutDown: true))
    }

    @Test func removingTheCurrentHostReportsNothingHosted() {
        var rules = Self.loaded()
        #expect(rules.handle(.hostRemoved(0)) == [.publish(State())])
        #expect(rules.handle(.hostRemoved(0)).isEmpty, "removal is idempotent")
        #expect(rules.handle(.shutdownRequested) == [.publish(State(isShutDown: true)), .endObservation],
                "a removed host is not stopped again")
    }
}
