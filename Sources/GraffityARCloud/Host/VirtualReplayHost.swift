/// A session host for tests: the replay moves only when `advance(by:)` moves it, on the
/// virtual clock, and each VPS answer is applied before the next frame, so a run gives the
/// same states and events every time and with every backend.
///
/// Made by `GraffityARCloud.makeVirtualReplay(session:directory:)`, the factory of hosts
/// whose time you step; `makeViewController` makes real-time hosts, which have no
/// `advance(by:)` to call by mistake.
@MainActor
public final class VirtualReplayHost: ARSessionHost {
    /// Presents every frame up to `replayTime + duration`, waiting for each VPS answer
    /// before the next frame, and runs the script actions due by then; then sets
    /// `replayTime` to that time. Returns early if the host is removed or the SDK shuts
    /// down meanwhile.
    /// - Throws: `ARCloudError.sessionShutDown`, `.hostRemoved`, `.hostNotLoaded`,
    ///   `.invalidUsage` (another `advance(by:)` still running).
    public func advance(by duration: Duration) async throws {
        try await advanceVirtualClock(by: duration)
    }
}
