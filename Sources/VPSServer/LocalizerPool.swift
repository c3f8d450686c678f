import Localization
import Support

/// Localizers over one map for concurrent requests. A `Localizer` serialises calls on its
/// feature extractor, so each request borrows a worker of its own (`makeWorker()`: shared
/// map and index, private scratch buffers); idle workers are kept for reuse.
public final class LocalizerPool: Sendable {
    public let base: Localizer
    private let idle: Locked<[Localizer]>
    private let maxIdle: Int

    public init(_ localizer: Localizer, maxIdle: Int = 32) {
        base = localizer
        idle = Locked([localizer])
        self.maxIdle = maxIdle
    }

    /// Runs `body` with a localizer no other thread is using.
    public func withLocalizer<R>(_ body: (Localizer) throws -> R) throws -> R {
        let worker = try idle.withLock { $0.popLast() } ?? base.makeWorker()
        defer { idle.withLock { if $0.count < maxIdle { $0.append(worker) } } }
        return try body(worker)
    }
}
