import Support

/// A clock whose time moves only when it is told to.
///
/// `advance(by:)` moves it forward; a `sleep` completes at once and moves the clock to the
/// sleep's deadline, so waits cost no real time but are still accounted for (a retry
/// budget measured on this clock is spent by the backoff delays alone). This makes any
/// code that waits on it deterministic. Safe to share between tasks.
public final class VirtualClock: Clock, Sendable {
    /// A point on a `VirtualClock`: the time elapsed since the clock started.
    public struct Instant: InstantProtocol, Sendable, Hashable, Comparable {
        /// Time since the clock's origin.
        public var offset: Swift.Duration

        /// The instant `offset` after the origin.
        public init(offset: Swift.Duration) { self.offset = offset }

        /// This instant moved by `duration`.
        public func advanced(by duration: Swift.Duration) -> Instant { Instant(offset: offset + duration) }
        /// How long from this instant to `other`.
        public func duration(to other: Instant) -> Swift.Duration { other.offset - offset }
        /// Earlier instants order first.
        public static func < (a: Instant, b: Instant) -> Bool { a.offset < b.offset }
    }

    private let elapsed: Locked<Swift.Duration>

    /// A clock standing at `start`.
    public init(start: Swift.Duration = .zero) { elapsed = Locked(start) }

    /// The current instant; it moves only through `advance(by:)`.
    public var now: Instant { Instant(offset: elapsed.withLock { $0 }) }
    /// Zero: virtual time has no granularity.
    public var minimumResolution: Swift.Duration { .zero }

    /// Moves the clock forward by `duration` (negative durations are ignored).
    public func advance(by duration: Swift.Duration) {
        elapsed.withLock { $0 += max(.zero, duration) }
    }

    /// Returns at once, with the clock moved to `deadline` if that is later than now.
    /// - Throws: `CancellationError` if the task is cancelled.
    public func sleep(until deadline: Instant, tolerance: Swift.Duration? = nil) async throws {
        try Task.checkCancellation()
        elapsed.withLock { $0 = max($0, deadline.offset) }
    }
}
