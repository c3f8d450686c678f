import Localization
import Foundation
import Geometry
import VPSModel
import Support

/// The headless stand-in for the SDK's AR view controller: it replays a recorded session's
/// frames, asks the VPS to localize one every `Configuration.vpsRequestInterval`, and
/// tracks the camera between fixes with the frames' device odometry.
///
/// Made by `GraffityARCloud.makeViewController(session:images:)` (real time) or, as a
/// `VirtualReplayHost`, by `makeVirtualReplay(session:images:)`. Its life follows a view
/// controller's: `loadView()` is the moment the view loads (the scene content is fetched,
/// then `isSceneReady` turns true and localization starts), `removeFromParent()` the moment
/// it is removed (replay and requests stop; the SDK itself stays usable).
///
/// In real time (`makeViewController`) the replay runs by itself after `loadView()` and
/// requests overlap it. On a `VirtualReplayHost` nothing moves until `advance(by:)` or
/// `runToEnd()` is called, and each VPS answer is applied before the next frame: runs are
/// deterministic.
///
/// On the same clock the host guides navigation (`GraffityARCloud.startNavigation(to:)`),
/// answers taps (`tap(at:)`) and plays the session's script: each `ScriptAction` runs when
/// the replay reaches its time, against the frame on screen then (the last frame stamped
/// at or before it).
@MainActor
public class ARSessionHost {
    /// The recording being replayed.
    public let session: RecordedSession
    /// How the replay is clocked: chosen by the factory that made the host.
    public let clock: ReplayClock

    /// True once `loadView()` has been called.
    public private(set) var isViewLoaded = false
    /// True after `removeFromParent()`, after the SDK shut down, or after a newer host
    /// replaced this one. A removed host does nothing more.
    public private(set) var isRemoved = false
    /// Session time of the replay (the recorded frames' time base).
    public internal(set) var replayTime: Duration = .zero
    /// Index into `session.frames` of the frame on screen, once one has been presented.
    public private(set) var currentFrameIndex: Int?
    /// `T_map_camera` of the current frame: the last VPS fix carried forward by odometry.
    /// Nil while not localized.
    public private(set) var cameraPose: Pose?
    /// The map's scene content, once loaded; objects collected this session are gone from it.
    public internal(set) var scene: SceneContent?
    /// Ids of the collectibles collected this session, in order.
    public internal(set) var collectedObjectIds: [String] = []
    /// The timed actions this host plays, in time order (the session's `script`).
    public let script: [ScriptAction]
    /// How many of `script` have run.
    public internal(set) var scriptActionsRun = 0
    /// VPS requests sent so far.
    public private(set) var vpsRequestCount = 0

    /// The frame on screen.
    public var currentFrame: RecordedSession.Frame? { currentFrameIndex.map { frames[$0] } }
    /// True when every frame has been presented.
    public var isReplayFinished: Bool { nextFrameIndex >= frames.count }

    let sdk: GraffityARCloud
    /// The SDK's backend, retried on this host's clock.
    private let backend: any VPSBackend
    /// Navigation in progress, when any (see `ARSessionHost+Navigation`).
    var activeNavigation: ActiveNavigation?
    private let images: any FrameImageSource
    private let frames: [RecordedSession.Frame]
    private var nextFrameIndex = 0
    /// The last fix carried forward by odometry (`VPS.OdometryTracker`).
    /// This host's number in the SDK's rules (`SessionRules.HostID`), set when it is made.
    var hostID: SessionRules.HostID = -1
    private var tracker = OdometryTracker()
    /// The last fix itself: the pose of frames without odometry (nothing better is known).
    private var lastFix: Pose?
    /// The service's last accepted answer for this host, with its pose's `accuracy`
    /// (map units and degrees); nil before the first fix and after a reset. The
    /// `.localization(.localized(…))` event of the same frame carries its pose.
    public private(set) var latestFix: LocalizationFix?
    private var lastRequestTime: Duration?
    private var localization: PendingOperation<LocalizationResponse>?
    private var sceneLoad: PendingOperation<SceneContent>?
    private var replayTask: Task<Void, Never>?
    /// The first frame's recorded timestamp: replay time 0 (scripts count from it).
    private let timeOrigin: Double
    private var isAdvancing = false
    private var isPaused = false
    private var resumeWaiters: [CheckedContinuation<Void, Never>] = []
    private var finishWaiters: [CheckedContinuation<Void, Never>] = []

    init(sdk: GraffityARCloud, session: RecordedSession, images: any FrameImageSource, clock: ReplayClock) {
        self.sdk = sdk
        self.session = session
        self.images = images
        self.clock = clock
        backend = sdk.retryingBackend(on: clock)
        // Stable sort: a recording is expected in time order, but replay must not depend on it.
        frames = session.frames.enumerated()
            .sorted { ($0.element.timestamp, $0.offset) < ($1.element.timestamp, $1.offset) }
            .map(\.element)
        timeOrigin = frames.first?.timestamp ?? 0
        script = (session.script ?? []).enumerated()
            .sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }
            .map(\.element)
    }

    isolated deinit {
        replayTask?.cancel()
        localization?.abandon()
        sceneLoad?.abandon()
    }

    // MARK: View lifecycle

    /// The view loads: fetches the map's scene content (state `.initializing`, then
    /// `isSceneReady` and `.localizing`), then starts the replay in real time, or, on a
    /// `VirtualReplayHost`, leaves it to `advance(by:)` and `runToEnd()`. Returns once
    /// the scene fetch has finished; a fetch failure is reported in `state.lastError`, not
    /// thrown. Calling it again does nothing.
    /// - Throws: `ARCloudError.sessionShutDown`, `.hostRemoved`.
    public func loadView() async throws {
        try checkUsable()
        guard !isViewLoaded else { return }
        isViewLoaded = true
        await loadScene()
        startRealtimeReplay()
    }

    /// The view is removed from its parent: replay stops, any request in flight is
    /// cancelled, and the session reports `.notStarted` without a scene. The SDK stays
    /// usable (a new host may be made); `reset()` no longer affects this one. Idempotent.
    public func removeFromParent() {
        guard !isRemoved else { return }
        stop()
        sdk.apply(.hostRemoved(hostID))
    }

    // MARK: Driving the replay

    /// Virtual clock only (`VirtualReplayHost.advance(by:)` and `runToEnd()` call it):
    /// presents every frame up to `replayTime + duration`, waiting for each VPS answer
    /// before the next frame, then sets `replayTime` to that time.
    func advanceVirtualClock(by duration: Duration) async throws {
        try checkUsable()
        guard isViewLoaded else { throw ARCloudError.hostNotLoaded }
        precondition(clock == .virtual, "only a virtual-clock host is advanced")
        guard !isAdvancing else { throw ARCloudError.invalidUsage("advance(by:) is already running on this host") }
        isAdvancing = true
        defer { isAdvancing = false }

        let target = (replayTime + max(.zero, duration)).roundedToMicroseconds
        while isRunning, nextFrameIndex < frames.count, frameTime(nextFrameIndex) <= target {
            // Actions stamped before this frame act on the frame still on screen.
            await runScript(before: frameTime(nextFrameIndex))
            while isPaused, isRunning { await withCheckedContinuation { resumeWaiters.append($0) } }
            guard isRunning else { break }
            present(frameAt: nextFrameIndex)
            if let request = localization { await request.settled() }
        }
        await runScript(through: target)
        if isRunning { replayTime = max(replayTime, target) }
        if isReplayFinished { replayDidFinish() }
    }

    /// Replays to the last frame (or the last scripted action, when later): on a virtual
    /// clock by advancing to it, in real time by waiting for the replay to get there.
    /// Returns early if the host stops.
    /// - Throws: `ARCloudError.sessionShutDown`, `.hostRemoved`, `.hostNotLoaded`.
    public func runToEnd() async throws {
        try checkUsable()
        guard isViewLoaded else { throw ARCloudError.hostNotLoaded }
        switch clock {
        case .virtual:
            try await advanceVirtualClock(by: max(.zero, endTime - replayTime))
        case .realtime:
            guard !isFinished else { return }
            await withCheckedContinuation { finishWaiters.append($0) }
        }
    }

    // MARK: Called by the SDK

    /// `reset()`: after the view has loaded, pauses the replay, drops the fix and any
    /// request in flight, returns VPS to `.localizing` (re-fetching the scene if that had
    /// failed), and resumes. Before the view loads it does nothing.
    func resetLocalization() async {
        guard isViewLoaded, isRunning else { return }
        pauseReplay()
        localization?.abandon()
        localization = nil
        tracker.reset()
        lastFix = nil
        latestFix = nil
        cameraPose = nil
        lastRequestTime = nil
        navigationDidLoseFix()
        let sceneReady = scene != nil
        sdk.apply(.localizationReset(sceneReady: sceneReady))
        if !sceneReady, sceneLoad == nil { await loadScene() }
        guard isRunning else { return }
        resumeReplay()
    }

    /// Ends all work for good: replay, requests, waiters. Used on removal, on shutdown and
    /// when a newer host replaces this one.
    func stop() {
        guard !isRemoved else { return }
        isRemoved = true
        replayTask?.cancel()
        replayTask = nil
        localization?.abandon()
        localization = nil
        sceneLoad?.abandon()
        sceneLoad = nil
        releaseWaiters()
    }

    // MARK: Frames and VPS

    var isRunning: Bool { isViewLoaded && !isRemoved && !sdk.isShutDown }

    /// When the replay is over: the last frame, or the last scripted action if later.
    private var endTime: Duration {
        max(frames.last.map { frameTimeOf($0) } ?? .zero, script.last.map { Self.time(of: $0) } ?? .zero)
    }

    /// True when every frame has been presented and every scripted action has run.
    private var isFinished: Bool { isReplayFinished && scriptActionsRun >= script.count }

    /// A scripted action's time on the replay clock, to the microsecond (as frames).
    /// (`makeViewController` refuses sessions with times `SessionTime` cannot convert, so
    /// the fallback is never taken.)
    static func time(of action: ScriptAction) -> Duration {
        .microseconds(SessionTime.microseconds(action.time) ?? 0)
    }

    func checkUsable() throws {
        if sdk.isShutDown { throw ARCloudError.sessionShutDown }
        if isRemoved { throw ARCloudError.hostRemoved }
    }

    /// A frame's time since the session's first frame, to the microsecond: recorded seconds
    /// are binary floating point, and `advance(by: .seconds(0.1))` ten times must reach the
    /// frame stamped 1.0. Recordings keep their own clock (a TUM import keeps Unix time).
    private func frameTimeOf(_ frame: RecordedSession.Frame) -> Duration {
        .microseconds(SessionTime.microseconds(frame.timestamp - timeOrigin) ?? 0)
    }
    private func frameTime(_ index: Int) -> Duration { frameTimeOf(frames[index]) }

    private func present(frameAt index: Int) {
        let frame = frames[index]
        nextFrameIndex = index + 1
        currentFrameIndex = index
        replayTime = max(replayTime, frameTime(index))
        cameraPose = trackedPose(odometry: frame.odometry)
        updateNavigation()
        if vpsRequestIsDue { startLocalization(frameAt: index) }
    }

    /// `T_map_camera` for a frame with this odometry: the last fix composed with the
    /// odometry motion since, or the fix itself when either frame has no odometry.
    private func trackedPose(odometry: Pose?) -> Pose? {
        tracker.predict(odometry: odometry) ?? lastFix
    }

    private var vpsRequestIsDue: Bool {
        guard localization == nil, scene != nil else { return false }
        switch sdk.state.vpsState {
        case .localizing, .localized: break
        case .notStarted, .initializing, .failed: return false
        }
        guard let last = lastRequestTime else { return true }
        return replayTime - last >= sdk.configuration.vpsRequestInterval
    }

    private func startLocalization(frameAt index: Int) {
        lastRequestTime = replayTime
        vpsRequestCount += 1
        let frame = frames[index]
        let images = self.images
        let backend = self.backend
        let mapId = sdk.configuration.mapId
        let camera = session.camera
        let prior = cameraPose
        let priorAccuracy = prior == nil ? nil : tracker.predictAccuracy(odometry: frame.odometry)
        let location = frame.gps ?? sdk.configuration.location
        localization = PendingOperation({
            let image = try images.image(for: frame)
            return try await backend.localize(LocalizationRequest(
                mapId: mapId, image: image, intrinsics: camera, prior: prior, priorAccuracy: priorAccuracy,
                gravity: frame.gravity,
                frameId: frame.id, location: location))
        }, completion: { [weak self] outcome in
            self?.localizationDidFinish(outcome, frameIndex: index)
        })
    }

    private func localizationDidFinish(_ outcome: Result<LocalizationResponse, any Error>, frameIndex: Int) {
        localization = nil
        guard isRunning else { return }
        let frame = frames[frameIndex]
        switch outcome {
        case .success(.localized(let fix)):
            // A fix without odometry must not leave an older anchor in place.
            tracker.reset()
            tracker.update(fix: fix.pose, accuracy: fix.accuracy, odometry: frame.odometry)
            lastFix = fix.pose
            latestFix = fix
            cameraPose = trackedPose(odometry: currentFrame?.odometry)
            sdk.apply(.localized(frameId: frame.id, sectionId: fix.sectionId, pose: fix.pose, inliers: fix.inliers))
            navigationDidGetFix()
        case .success(.notLocalized(let reason)):
            sdk.apply(.notLocalized(frameId: frame.id, reason: reason))
        case .failure(let error):
            backendDidFail(error)
        }
    }

    private func loadScene() async {
        sdk.apply(.sceneLoading)
        let backend = self.backend
        let mapId = sdk.configuration.mapId
        let load = PendingOperation({ try await backend.scene(mapId: mapId) },
                                    completion: { [weak self] outcome in self?.sceneLoadDidFinish(outcome) })
        sceneLoad = load
        await load.settled()
    }

    private func sceneLoadDidFinish(_ outcome: Result<SceneContent, any Error>) {
        sceneLoad = nil
        guard isRunning else { return }
        switch outcome {
        case .success(let content):
            scene = content
            sdk.apply(.sceneLoaded)
        case .failure(let error):
            backendDidFail(error)
        }
    }

    /// Surfaces a failure that the retry policy did not absorb. A rejected token ends the
    /// session. A failure of one frame (its image unreadable, or the request refused for
    /// that image: it does not decode, say) is that frame's outcome, as in `arcloud
    /// localize`: reported, and the next request tries the next frame. Anything else
    /// (map missing, backend unavailable…) stops VPS in `.failed` until `reset()`.
    private func backendDidFail(_ error: any Error) {
        if error is CancellationError { return }
        let failure: ARCloudError
        switch error {
        case let e as ARCloudError: failure = e
        case let e as VPSBackendError: failure = ARCloudError(backendError: e)
        default: failure = .backendUnavailable(String(describing: error))
        }
        sdk.apply(.backendFailed(failure))
    }

    // MARK: Replay control

    private func startRealtimeReplay() {
        guard clock == .realtime, replayTask == nil, isRunning, !isPaused else { return }
        guard !isFinished else { replayDidFinish(); return }
        let origin = ContinuousClock.now.advanced(by: .zero - replayTime)
        replayTask = Task { [weak self] in
            let clock = ContinuousClock()
            while true {
                guard let (deadline, isAction) = self?.nextDeadline() else { return }
                do { try await clock.sleep(until: origin.advanced(by: deadline), tolerance: nil) } catch { return }
                guard let self, !Task.isCancelled, self.isRunning, !self.isPaused else { return }
                if isAction {
                    await self.runNextScriptAction()
                } else {
                    self.present(frameAt: self.nextFrameIndex)
                }
            }
        }
    }

    /// Replay time of what comes next in real time: a scripted action stamped before the
    /// next frame, or else the frame; nil (and the replay finished) when nothing is left.
    private func nextDeadline() -> (Duration, isAction: Bool)? {
        guard isRunning, !isPaused else { return nil }
        guard !isFinished else { replayDidFinish(); return nil }
        let action = scriptActionsRun < script.count ? Self.time(of: script[scriptActionsRun]) : nil
        let frame = nextFrameIndex < frames.count ? frameTime(nextFrameIndex) : nil
        if let action, frame.map({ action < $0 }) ?? true { return (action, true) }
        return frame.map { ($0, false) }
    }

    private func pauseReplay() {
        isPaused = true
        replayTask?.cancel()
        replayTask = nil
    }

    private func resumeReplay() {
        isPaused = false
        let waiters = resumeWaiters
        resumeWaiters.removeAll()
        for waiter in waiters { waiter.resume() }
        startRealtimeReplay()
    }

    private func replayDidFinish() {
        replayTask = nil
        let waiters = finishWaiters
        finishWaiters.removeAll()
        for waiter in waiters { waiter.resume() }
    }

    private func releaseWaiters() {
        let waiters = resumeWaiters + finishWaiters
        resumeWaiters.removeAll()
        finishWaiters.removeAll()
        for waiter in waiters { waiter.resume() }
    }
}


