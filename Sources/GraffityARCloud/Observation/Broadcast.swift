import Support

/// Fans values out to any number of subscribers: `AsyncStream`s (one continuation each)
/// and closures run on the main actor. Subscribers leave when their stream terminates or
/// their subscription is cancelled.
///
/// `send` must be called on the main actor (the SDK's only publisher); subscribing is safe
/// from anywhere.
final class Broadcast<Value: Sendable>: Sendable {
    typealias Handler = @MainActor @Sendable (Value) -> Void

    private struct Subscribers {
        var nextId: UInt64 = 0
        var streams: [UInt64: AsyncStream<Value>.Continuation] = [:]
        var handlers: [UInt64: Handler] = [:]
    }

    private let subscribers = Locked(Subscribers())

    /// A new stream that first yields `first` (when given), then every value sent.
    /// Every value is kept until consumed (`.unbounded`): observers see every transition.
    func makeStream(startingWith first: Value?) -> AsyncStream<Value> {
        let (stream, continuation) = AsyncStream.makeStream(of: Value.self, bufferingPolicy: .unbounded)
        // Register and yield the first value under the lock, so that no value sent
        // concurrently can overtake it.
        let id = subscribers.withLock { s -> UInt64 in
            let id = s.nextId
            s.nextId += 1
            s.streams[id] = continuation
            if let first { continuation.yield(first) }
            return id
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.subscribers.withLock { $0.streams.removeValue(forKey: id) }
        }
        return stream
    }

    /// Registers `handler`; returns its id for `removeHandler(_:)`.
    func addHandler(_ handler: @escaping Handler) -> UInt64 {
        subscribers.withLock { s in
            let id = s.nextId
            s.nextId += 1
            s.handlers[id] = handler
            return id
        }
    }

    func removeHandler(_ id: UInt64) {
        _ = subscribers.withLock { $0.handlers.removeValue(forKey: id) }
    }

    /// Drops every closure subscriber (streams stay open).
    func removeAllHandlers() {
        subscribers.withLock { $0.handlers.removeAll() }
    }

    /// Delivers `value` to every stream, then to every closure in subscription order.
    @MainActor
    func send(_ value: Value) {
        let handlers = subscribers.withLock { s -> [Handler] in
            for continuation in s.streams.values { continuation.yield(value) }
            return s.handlers.sorted { $0.key < $1.key }.map(\.value)
        }
        // Outside the lock: a handler may cancel its own or another subscription.
        for handler in handlers { handler(value) }
    }

    /// Subscribers currently registered (streams and closures).
    var subscriberCount: Int {
        subscribers.withLock { $0.streams.count + $0.handlers.count }
    }
}
