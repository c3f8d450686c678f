#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A value shared between threads, every access to it made while holding a `pthread_mutex_t`.
///
/// The project's lock, in the shape of swift-nio's `NIOLockedValueBox`, used instead of the
/// standard library's `Synchronization.Mutex`: that one locks inside the toolchain's
/// libswiftSynchronization.so, which is not instrumented, so ThreadSanitizer never sees the
/// lock and reports every pair of accesses to the state it protects as a data race (which
/// made TSan useless on exactly the state that matters). `pthread_mutex_lock` and
/// `pthread_mutex_unlock` are intercepted by TSan, so it sees the happens-before edges
/// this lock creates, and a real race on the protected state (an access outside
/// `withLock`) is still reported. See docs/hardening.md.
///
/// ```swift
/// let hits = Locked(0)
/// hits.withLock { $0 += 1 }
/// let now = hits.withLock { $0 }
/// ```
///
/// A `Locked` is a handle: its copies share one value and one lock (like a class reference),
/// so it can be captured by escaping closures and stored in `Sendable` structs. It is
/// `Sendable` whatever the value (the lock is what makes sharing safe), and `Value` may be
/// non-copyable (a C handle that must be destroyed once). The lock is not recursive: calling
/// `withLock` on the same `Locked` inside its own closure is a programming error (a
/// precondition failure in debug builds, where the mutex checks for it; a deadlock otherwise).
public struct Locked<Value: ~Copyable> {
    private let storage: LockedStorage<Value>

    /// Protects `value`.
    public init(_ value: consuming sending Value) {
        storage = LockedStorage(value)
    }

    /// Runs `body` on the value while holding the lock and returns its result. The lock is
    /// released when `body` returns or throws. Keep `body` short: other threads wait for it.
    public func withLock<Result, Failure: Error>(
        _ body: (inout sending Value) throws(Failure) -> sending Result
    ) throws(Failure) -> sending Result {
        storage.lock()
        defer { storage.unlock() }
        return try body(&storage.value)
    }
}

extension Locked: @unchecked Sendable where Value: ~Copyable {}

/// The mutex and the value of a `Locked`, in one object so that the mutex never moves
/// (a `pthread_mutex_t` must stay at the address it was initialised at).
private final class LockedStorage<Value: ~Copyable> {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    /// Read and written only between `lock()` and `unlock()`.
    var value: Value

    init(_ value: consuming Value) {
        self.value = value
        mutex = .allocate(capacity: 1)
        var attributes = pthread_mutexattr_t()
        pthread_mutexattr_init(&attributes)
        defer { pthread_mutexattr_destroy(&attributes) }
        #if DEBUG
        // Relocking from the owning thread fails loudly instead of deadlocking.
        pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_ERRORCHECK))
        #endif
        let status = pthread_mutex_init(mutex, &attributes)
        precondition(status == 0, "pthread_mutex_init failed: \(status)")
    }

    deinit {
        let status = pthread_mutex_destroy(mutex)
        precondition(status == 0, "pthread_mutex_destroy failed: \(status)")
        mutex.deallocate()
    }

    func lock() {
        let status = pthread_mutex_lock(mutex)
        precondition(status == 0, "pthread_mutex_lock failed: \(status) (a recursive withLock?)")
    }

    func unlock() {
        let status = pthread_mutex_unlock(mutex)
        precondition(status == 0, "pthread_mutex_unlock failed: \(status)")
    }
}
