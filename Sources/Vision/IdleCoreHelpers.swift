import VisionCore

/// Threads that lend a free core to a localization in progress.
///
/// The server runs each localization inside `running(_:)`. Helpers take a part of one only
/// while fewer localizations run than there are cores, so a service busy on every core
/// loses nothing to them, and one with a core free (at low load, or while a client sends
/// its next request) finishes the localization in progress sooner. Today
/// ORB extraction uses them: the pyramid levels' corners and blurred copies, then each
/// level's descriptors. Results are identical with and without helpers.
///
/// Helpers serve only threads inside `running(_:)` or opted in with `useOnCurrentThread()`;
/// every other thread runs its calls alone (batch localization already keeps every core busy with a frame
/// each, and a single-thread benchmark stays single-thread).
public final class IdleCoreHelpers: @unchecked Sendable {
    // The C++ object is thread-safe; `handle` never changes.
    private let handle: OpaquePointer

    /// Starts `threads` helper threads (1...256) for `cores` workers (1...4096); one helper
    /// per core beyond the first is enough.
    public init(threads: Int, cores: Int) throws(VisionError) {
        var out: OpaquePointer?
        try VisionError.check(vc_idle_helpers_create(Int32(clamping: threads), Int32(clamping: cores), &out))
        guard let out else { throw VisionError(.internalError, "vc_idle_helpers_create returned no helpers") }
        handle = out
    }

    /// Stops the helper threads. Threads that opted in must have opted out (or exited) by
    /// now; holding a reference while opted in guarantees it.
    deinit { vc_idle_helpers_destroy(handle) }

    /// Number of helper threads.
    public var threadCount: Int { Int(vc_idle_helpers_count(handle)) }

    /// Parts of localizations the helpers have run so far.
    public var tasksRun: Int { Int(vc_idle_helpers_tasks_run(handle)) }

    /// Runs `job` (one localization) on the calling thread, counted as running and with
    /// these helpers serving it: while as many jobs run as there are cores, helpers take no
    /// part of any. The thread is opted out afterwards (`stopUsingOnCurrentThread()`).
    public func running<R, E: Error>(_ job: () throws(E) -> R) throws(E) -> R {
        vc_idle_helpers_job_started(handle)
        useOnCurrentThread()
        defer {
            Self.stopUsingOnCurrentThread()
            vc_idle_helpers_job_finished(handle)
        }
        return try job()
    }

    /// Lets localizations on the calling thread hand parts of their work to these helpers
    /// until `IdleCoreHelpers.stopUsingOnCurrentThread()`. The caller keeps `self` alive
    /// while it is in use.
    public func useOnCurrentThread() { vc_idle_helpers_use_on_current_thread(handle) }

    /// The calling thread's calls run on it alone again.
    public static func stopUsingOnCurrentThread() { vc_idle_helpers_use_on_current_thread(nil) }
}
