// Compiles only if `import GraffityARCloud` alone is enough for everything its public API
// mentions, as in an app that depends on the package (no @testable, no other module of
// this package imported). Each type is named explicitly on purpose.
import Foundation
import GraffityARCloud
import Testing

@MainActor
struct PublicAPICompileTests {
    @Test("session, pose, scene, intrinsics and error types are reachable through the one import")
    func everyPublicTypeIsNamedWithTheOneImport() throws {
        let intrinsics: CameraIntrinsics = CameraIntrinsics(width: 640, height: 480, fx: 500, fy: 500, cx: 319.5, cy: 239.5)
        let pose: Pose = Pose(rotation: Quaternion(x: 0, y: 0, z: 0, w: 1), translation: SIMD3(1, 2, 3))
        let frame: RecordedSession.Frame = RecordedSession.Frame(id: "f0", timestamp: 0, image: "frames/f0.jpg", pose: pose)
        let action: ScriptAction = ScriptAction(time: 1, action: .reset)
        let session: RecordedSession = RecordedSession(name: "s", camera: intrinsics, frames: [frame], script: [action])
        let scene: SceneContent = SceneContent(sections: [MapSection(id: "a", name: "A")], objects: [],
                                               navigation: NavigationGraph())
        let objects: [SceneObject] = scene.objects
        let options: LocalizerOptions = LocalizerOptions()
        let configuration: GraffityARCloud.Configuration = .init(mapId: "m", serverURL: URL(string: "http://127.0.0.1:9"),
                                                                 accessToken: "t")
        let state: GraffityARCloud.State = .initial
        let vps: VPSState = .localized(sectionId: "a")
        let navigation: NavigationState = NavigationState(destination: "n", hint: NavigationHint.turnLeft)
        let error: ARCloudError = .invalidAccessToken
        let event: LocalizationEvent = .localized(frameId: "f0", sectionId: "a", pose: pose, inliers: 30)
        let fix: LocalizationFix = LocalizationFix(pose: pose, sectionId: "a", inliers: 30)
        let response: LocalizationResponse = .localized(fix)
        let backendError: VPSBackendError = .unauthorized("bad token")
        let policy: RetryPolicy = .default
        let clock: ReplayClock = .realtime
        let embedded: EmbeddedVPSBackend = EmbeddedVPSBackend(mapId: "m", mapURL: URL(fileURLWithPath: "/nonexistent.vpsmap"),
                                                              options: options)
        let sdk = GraffityARCloud(configuration: configuration, backend: embedded)
        let host: VirtualReplayHost = try sdk.makeVirtualReplay(session: session, images: DirectoryFrameImages(directory: URL(fileURLWithPath: "/tmp")))
        let asHost: ARSessionHost = host
        let ray: SceneRay = SceneRay(cameraPose: pose, intrinsics: intrinsics, pixel: SIMD2(320, 240))
        let subscription: StateSubscription = sdk.subscribe { _ in }
        let events: AsyncStream<ARCloudEvent> = sdk.eventStream()
        let states: AsyncStream<GraffityARCloud.State> = sdk.stateStream()

        #expect(session.frames.count == 1 && objects.isEmpty && vps.sectionId == "a")
        #expect(navigation.destination == "n" && error == .invalidAccessToken && state == .initial)
        #expect(event != .reset && response != .notLocalized(reason: "") && backendError != .throttled(status: 429, message: "x"))
        #expect(policy.maxAttempts > 0 && clock == .realtime && asHost.session.name == "s")
        #expect(ray.direction.z > 0)
        subscription.cancel()
        _ = (events, states)
    }
}
