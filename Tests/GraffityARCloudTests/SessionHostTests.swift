import Geometry
import GraffityARCloud
import Localization
import Testing
import VPSModel

@MainActor
@Suite("Session host")
struct SessionHostTests {
    @Test("the scene is ready only once the view has loaded and the scene content arrived")
    func sceneReadyAfterLoad() async throws {
        let scene = SceneContent(sections: [MapSection(id: "hall", name: "Hall")])
        let backend = ScriptedBackend()
        backend.enqueueScene(.success(scene))
        let (sdk, host) = try Fixtures.make(backend)
        var stream = sdk.stateStream().makeAsyncIterator()
        #expect(sdk.state.isSceneReady == false)
        #expect(backend.sceneCalls == 0)

        try await host.loadView()
        #expect(host.isViewLoaded)
        #expect(host.scene == scene)
        #expect(await take(3, from: &stream) == [.initial, .vps(.initializing, ready: false), .vps(.localizing)])
    }

    @Test("a failed scene fetch is reported, not thrown, and VPS does not start")
    func sceneFailure() async throws {
        let backend = ScriptedBackend()
        backend.enqueueScene(.failure(.mapNotFound(mapId: "gallery")))
        let (sdk, host) = try Fixtures.make(backend)
        try await host.loadView()
        try await host.advance(by: .seconds(2))
        #expect(sdk.state == .vps(.failed(.mapNotFound(mapId: "gallery")), ready: false,
                                  error: .mapNotFound(mapId: "gallery")))
        #expect(backend.requestCount == 0)
    }

    @Test("VPS requests run at the configured interval of replay time")
    func requestInterval() async throws {
        let backend = ScriptedBackend(fallback: .answer(.notLocalized(reason: "no match")))
        let (_, host) = try Fixtures.make(backend, interval: .milliseconds(500), frames: 30)
        try await host.loadView()
        try await host.runToEnd()
        // Frames every 0.1 s from 0 to 2.9 s; a request at 0, 0.5, 1.0, ... 2.5 s.
        #expect(backend.requests.map(\.frameId) == ["f0", "f5", "f10", "f15", "f20", "f25"])
        #expect(host.vpsRequestCount == 6)
        #expect(host.replayTime == .milliseconds(2900))
        #expect(host.isReplayFinished)
    }

    @Test("between VPS fixes the pose follows the device odometry")
    func trackingFromOdometry() async throws {
        let backend = ScriptedBackend([.fix(0)])
        let (_, host) = try Fixtures.make(backend, interval: .seconds(10))
        try await host.loadView()
        try await host.advance(by: .seconds(0.7))
        #expect(backend.requestCount == 1)
        #expect(host.currentFrame?.id == "f7")
        let pose = try #require(host.cameraPose)
        let error = pose.error(to: Fixtures.groundTruth(7))
        #expect(error.translation < 1e-9)
        #expect(error.rotationDegrees < 1e-6)
        // The odometry alone is in another frame: composing with the fix is what places it.
        #expect(length(Fixtures.session().frames[7].odometry!.translation - pose.translation) > 1)
    }

    @Test("the prior goes with its accuracy: the last fix's, widened by the drift allowed since")
    func priorAccuracy() async throws {
        let claimed = PoseAccuracy(position: 0.04, rotationDegrees: 0.3)
        let fix = LocalizationFix(pose: Fixtures.groundTruth(0), sectionId: "hall", inliers: 120, accuracy: claimed)
        let backend = ScriptedBackend([.answer(.localized(fix))])
        let (_, host) = try Fixtures.make(backend)
        try await host.loadView()
        try await host.advance(by: .seconds(1))
        let requests = backend.requests
        #expect(requests.count == 2)
        #expect(requests[0].priorAccuracy == nil)
        let sent = try #require(requests[1].priorAccuracy)
        let frames = Fixtures.session().frames
        let walked = length(frames[10].odometry!.translation - frames[0].odometry!.translation)
        #expect(walked > 0.1)
        let tracker = OdometryTracker()
        #expect(abs(sent.position - (claimed.position + tracker.driftFraction * walked)) < 1e-9)
        #expect(abs(sent.rotationDegrees - (claimed.rotationDegrees + tracker.driftDegreesPerUnit * walked)) < 1e-9)
    }

    @Test("the request carries the frame, the intrinsics and the tracked pose as prior")
    func requestContents() async throws {
        let backend = ScriptedBackend([.fix(0)])
        let (_, host) = try Fixtures.make(backend)
        try await host.loadView()
        try await host.advance(by: .seconds(1))
        let requests = backend.requests
        #expect(requests.count == 2)
        #expect(requests[0].mapId == "gallery")
        #expect(requests[0].intrinsics == Fixtures.camera)
        #expect(requests[0].prior == nil)
        let prior = try #require(requests[1].prior)
        #expect(prior.error(to: Fixtures.groundTruth(10)).translation < 1e-9)
    }

    @Test("a frame that is not localized leaves VPS localizing")
    func notLocalized() async throws {
        let backend = ScriptedBackend([.notLocalized("too few inliers (12 < 30)")])
        let (sdk, host) = try Fixtures.make(backend)
        var events = sdk.eventStream().makeAsyncIterator()
        try await host.loadView()
        try await host.advance(by: .zero)
        #expect(sdk.state == .vps(.localizing))
        #expect(host.cameraPose == nil)
        #expect(await events.next() == .localization(.notLocalized(frameId: "f0", reason: "too few inliers (12 < 30)")))
    }

    @Test("advance needs a loaded view; only makeVirtualReplay makes a host that has it")
    func advanceRules() async throws {
        let (_, host) = try Fixtures.make(ScriptedBackend())
        #expect(host.clock == .virtual)
        await #expect(throws: ARCloudError.hostNotLoaded) { try await host.advance(by: .seconds(1)) }

        let sdk = GraffityARCloud(configuration: Fixtures.configuration(), backend: ScriptedBackend())
        let realtime = try sdk.makeViewController(session: Fixtures.session(), images: StubImages())
        #expect(realtime.clock == .realtime && !(realtime is VirtualReplayHost))
    }

    @Test("removing the host stops it and reports that nothing is hosted")
    func removeFromParent() async throws {
        let backend = ScriptedBackend([.fix(0)])
        let (sdk, host) = try await Fixtures.localizedAtFirstFrame(backend)
        host.removeFromParent()
        #expect(host.isRemoved)
        #expect(sdk.state == .vps(.notStarted, ready: false))
        await #expect(throws: ARCloudError.hostRemoved) { try await host.advance(by: .seconds(1)) }
        #expect(backend.requestCount == 1)
        #expect(sdk.isShutDown == false)
    }

    @Test("a real-time host replays by itself to the end")
    func realtimeReplay() async throws {
        let backend = ScriptedBackend([.fix(0)])
        let (sdk, host) = try Fixtures.makeRealtime(backend, interval: .seconds(0.1), frames: 5)
        try await host.loadView()
        try await host.runToEnd()
        #expect(host.isReplayFinished)
        #expect(host.currentFrame?.id == "f4")
        #expect(backend.requestCount >= 1)
        #expect(sdk.state.vpsState == .localized(sectionId: "hall"))
    }
}
