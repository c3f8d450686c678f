import Foundation
import Geometry
import GraffityARCloud
import VPSModel
import Testing

/// Frame images for tests: a JPEG signature only. The scripted backend never decodes it.
struct StubImages: FrameImageSource {
    func image(for frame: RecordedSession.Frame) throws -> EncodedImage {
        EncodedImage(format: .jpeg, data: Data([0xFF, 0xD8, 0xFF, 0xE0]))
    }
}

/// Frame images for tests against the HTTP service: a PNG signature and IHDR chunk of the
/// camera's size, enough for the service's header check. The stub engine never decodes it.
struct PNGHeaderImages: FrameImageSource {
    var width = Fixtures.camera.width, height = Fixtures.camera.height

    func image(for frame: RecordedSession.Frame) throws -> EncodedImage {
        func be32(_ v: Int) -> [UInt8] { [UInt8(v >> 24 & 255), UInt8(v >> 16 & 255), UInt8(v >> 8 & 255), UInt8(v & 255)] }
        let bytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + be32(13) + Array("IHDR".utf8)
            + be32(width) + be32(height) + [8, 2, 0, 0, 0] + [0, 0, 0, 0]
        return EncodedImage(format: .png, data: Data(bytes))
    }
}

enum Fixtures {
    static let camera = CameraIntrinsics(width: 640, height: 480, fx: 500, fy: 500, cx: 320, cy: 240)

    /// Where the device's tracking frame sits in the map (`T_map_local`): odometry poses
    /// are the ground truth seen from there, as ARKit would report them.
    static let mapFromLocal = Pose(rotation: Quaternion(axis: SIMD3(0, 1, 0), angle: 0.7),
                                   translation: SIMD3(2, 0, -3))

    /// Ground truth of frame `i`: walking along +x while slowly turning.
    static func groundTruth(_ i: Int) -> Pose {
        Pose(rotation: Quaternion(axis: SIMD3(0, 1, 0), angle: 0.01 * Double(i)),
             translation: SIMD3(0.1 * Double(i), 1.5, 0))
    }

    /// `count` frames at 10 Hz (`f0` at t = 0), with ground truth and odometry.
    static func session(frames count: Int = 30) -> RecordedSession {
        let frames = (0..<count).map { i in
            RecordedSession.Frame(id: "f\(i)", timestamp: Double(i) / 10, image: "frames/\(i).jpg",
                                  pose: groundTruth(i), odometry: mapFromLocal.inverse * groundTruth(i))
        }
        return RecordedSession(name: "test", camera: camera, frames: frames)
    }

    static func fix(_ frame: Int, section: String = "hall") -> LocalizationResponse {
        .localized(LocalizationFix(pose: groundTruth(frame), sectionId: section, inliers: 120, reprojectionError: 0.8))
    }

    static func configuration(interval: Duration = .seconds(1), retry: RetryPolicy = .never) -> GraffityARCloud.Configuration {
        .init(mapId: "gallery", vpsRequestInterval: interval, retryPolicy: retry, jitterSeed: 7)
    }

    /// An SDK with a scripted backend (by default one that places the first request in the
    /// hall) and a virtual-clock host for `session()`, not yet loaded.
    @MainActor
    static func make(_ backend: ScriptedBackend = ScriptedBackend([.fix(0)]), interval: Duration = .seconds(1), retry: RetryPolicy = .never,
                     frames: Int = 30) throws -> (GraffityARCloud, VirtualReplayHost) {
        let sdk = GraffityARCloud(configuration: configuration(interval: interval, retry: retry),
                                  backend: backend)
        return (sdk, try sdk.makeVirtualReplay(session: session(frames: frames), images: StubImages()))
    }

    /// An SDK whose host is loaded and has run its first frame (t = 0), which the backend
    /// placed in the hall: where most state and lifecycle tests start.
    @MainActor
    static func localizedAtFirstFrame(_ backend: ScriptedBackend = ScriptedBackend([.fix(0)])) async throws
        -> (GraffityARCloud, VirtualReplayHost) {
        let (sdk, host) = try make(backend)
        try await host.loadView()
        try await host.advance(by: .zero)
        return (sdk, host)
    }

    /// Expects the SDK to have given up on the backend after spending its retry budget: the
    /// failed VPS state carries `backendUnavailable` with a message that mentions `detail`,
    /// and the SDK keeps running.
    @MainActor
    static func expectBackendUnavailable(_ sdk: GraffityARCloud, mentioning detail: String,
                                         sourceLocation: SourceLocation = #_sourceLocation) {
        guard case .backendUnavailable(let message)? = sdk.state.lastError else {
            Issue.record("expected backendUnavailable, got \(sdk.state)", sourceLocation: sourceLocation)
            return
        }
        #expect(message.contains(detail), sourceLocation: sourceLocation)
        #expect(sdk.state.vpsState == .failed(.backendUnavailable(message)), sourceLocation: sourceLocation)
        #expect(sdk.isShutDown == false, sourceLocation: sourceLocation)
    }

    /// An SDK with a scripted backend and a real-time host for `session()`, not yet loaded.
    @MainActor
    static func makeRealtime(_ backend: ScriptedBackend, interval: Duration = .seconds(1),
                             frames: Int = 30) throws -> (GraffityARCloud, ARSessionHost) {
        let sdk = GraffityARCloud(configuration: configuration(interval: interval), backend: backend)
        return (sdk, try sdk.makeViewController(session: session(frames: frames), images: StubImages()))
    }
}

/// Records delegate callbacks in order.
@MainActor
final class RecordingDelegate: GraffityARCloudDelegate {
    var states: [GraffityARCloud.State] = []
    var localizationEvents: [LocalizationEvent] = []
    /// Every event, in order.
    var events: [ARCloudEvent] = []

    func graffityARCloud(_ sdk: GraffityARCloud, didChangeState state: GraffityARCloud.State) {
        states.append(state)
    }

    func graffityARCloud(_ sdk: GraffityARCloud, didUpdateLocalization event: LocalizationEvent) {
        localizationEvents.append(event)
        events.append(.localization(event))
    }

    func graffityARCloud(_ sdk: GraffityARCloud, didTap event: TapEvent) { events.append(.tap(event)) }
    func graffityARCloud(_ sdk: GraffityARCloud, didCollect event: CollectionEvent) { events.append(.collection(event)) }
    func graffityARCloud(_ sdk: GraffityARCloud, didOpenLink event: LinkEvent) { events.append(.link(event)) }
    func graffityARCloud(_ sdk: GraffityARCloud, didUpdateNavigation event: NavigationEvent) {
        events.append(.navigation(event))
    }

    var navigationEvents: [NavigationEvent] {
        events.compactMap { if case .navigation(let e) = $0 { return e } else { return nil } }
    }
}

extension GraffityARCloud.State {
    static func vps(_ vps: VPSState, ready: Bool = true, error: ARCloudError? = nil) -> Self {
        .init(isSceneReady: ready, vpsState: vps, navigation: nil, lastError: error)
    }

    /// The final snapshot of a session that shut down, keeping `error` as `lastError`.
    static func shutDown(_ error: ARCloudError? = nil) -> Self { .init(lastError: error, isShutDown: true) }
}

/// Drains what a stream has buffered so far, given how many values are expected.
func take<T>(_ n: Int, from iterator: inout AsyncStream<T>.Iterator) async -> [T] {
    var values: [T] = []
    for _ in 0..<n {
        guard let v = await iterator.next() else { break }
        values.append(v)
    }
    return values
}

/// Lets work already queued for the main actor run before the test looks again: used only
/// where a test checks that something does NOT happen (a late, discarded answer), so a
/// slow scheduler can make the check weaker but never make it fail wrongly.
@MainActor
func settleMainActor() async {
    for _ in 0..<3 { await Task.detached {}.value }
}
