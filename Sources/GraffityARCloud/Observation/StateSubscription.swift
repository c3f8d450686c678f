import Support

/// A closure subscription to a session's state, standing in for Combine's
/// `AnyCancellable` on platforms without Combine.
///
/// Retain it for as long as you want updates: the subscription is cancelled by `cancel()`
/// or when the last reference goes away.
public final class StateSubscription: Sendable, Hashable {
    private let onCancel: Locked<(@Sendable () -> Void)?>

    init(onCancel: @escaping @Sendable () -> Void) {
        self.onCancel = Locked(onCancel)
    }

    /// A subscription that is already over (nothing will be delivered).
    static func finished() -> StateSubscription {
        let s = StateSubscription(onCancel: {})
        s.cancel()
        return s
    }

    deinit { cancel() }

    /// Stops delivery. Idempotent.
    public func cancel() {
        let action = onCancel.withLock { action -> (@Sendable () -> Void)? in
            defer { action = nil }
            return action
        }
        action?()
    }

    /// True after `cancel()`.
    public var isCancelled: Bool { onCancel.withLock { $0 == nil } }

    /// Keeps the subscription in `set`, as with Combine's `store(in:)`.
    public func store(in set: inout Set<StateSubscription>) { set.insert(self) }

    /// Identity: two subscriptions are equal only if they are the same object.
    public static func == (a: StateSubscription, b: StateSubscription) -> Bool { a === b }
    /// Hashes the object identity (see `==`).
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}
