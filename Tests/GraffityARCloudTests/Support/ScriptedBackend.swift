import Foundation
import GraffityARCloud
import Support
import VPSModel

/// A test double of `VPSBackend` that answers from a script, to drive the session's state
/// machine. Not a localizer: it returns whatever the test put in the script.
final class ScriptedBackend: VPSBackend {
    enum Step: Sendable {
        case answer(LocalizationResponse)
        case fail(VPSBackendError)
        /// Wait until the test calls `release(_:)`.
        case hold
    }

    private struct State {
        var script: [Step] = []
        var fallback: Step = .answer(.notLocalized(reason: "script exhausted"))
        var sceneScript: [Result<SceneContent, VPSBackendError>] = []
        var sceneFallback: Result<SceneContent, VPSBackendError> = .success(SceneContent())
        var requests: [LocalizationRequest] = []
        var sceneCalls = 0
        var cancellations = 0
        var held: [CheckedContinuation<Result<LocalizationResponse, VPSBackendError>, Never>] = []
        var requestWaiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
        var returns = 0
        var returnWaiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
    }

    private let state = Locked(State())

    init(_ script: [Step] = [], fallback: Step? = nil) {
        state.withLock { s in
            s.script = script
            if let fallback { s.fallback = fallback }
        }
    }

    /// Queues more localization steps.
    func enqueue(_ steps: Step...) { state.withLock { $0.script += steps } }

    /// Queues scene answers (the default answer is an empty scene).
    func enqueueScene(_ results: Result<SceneContent, VPSBackendError>...) {
        state.withLock { $0.sceneScript += results }
    }

    var requests: [LocalizationRequest] { state.withLock { $0.requests } }
    var requestCount: Int { state.withLock { $0.requests.count } }
    var sceneCalls: Int { state.withLock { $0.sceneCalls } }
    /// How many held requests saw their task cancelled.
    var cancellations: Int { state.withLock { $0.cancellations } }

    /// Answers the oldest held request.
    func release(_ outcome: Result<LocalizationResponse, VPSBackendError>) {
        let waiter = state.withLock { s in s.held.isEmpty ? nil : s.held.removeFirst() }
        waiter?.resume(returning: outcome)
    }

    /// Returns once `count` localization requests have arrived.
    func waitForRequests(_ count: Int) async {
        await withCheckedContinuation { (c: CheckedContinuation<Void, Never>) in
            let ready = state.withLock { s -> Bool in
                if s.requests.count >= count { return true }
                s.requestWaiters.append((count, c))
                return false
            }
            if ready { c.resume() }
        }
    }

    /// Returns once `count` localization calls have returned or thrown.
    func waitForReturns(_ count: Int) async {
        await withCheckedContinuation { (c: CheckedContinuation<Void, Never>) in
            let ready = state.withLock { s -> Bool in
                if s.returns >= count { return true }
                s.returnWaiters.append((count, c))
                return false
            }
            if ready { c.resume() }
        }
    }

    func localize(_ request: LocalizationRequest) async throws -> LocalizationResponse {
        defer {
            let ready = state.withLock { s -> [CheckedContinuation<Void, Never>] in
                s.returns += 1
                let ready = s.returnWaiters.filter { $0.count <= s.returns }.map(\.continuation)
                s.returnWaiters.removeAll { $0.count <= s.returns }
                return ready
            }
            for c in ready { c.resume() }
        }
        let (step, ready) = state.withLock { s -> (Step, [CheckedContinuation<Void, Never>]) in
            s.requests.append(request)
            let n = s.requests.count
            let ready = s.requestWaiters.filter { $0.count <= n }.map(\.continuation)
            s.requestWaiters.removeAll { $0.count <= n }
            return (s.script.isEmpty ? s.fallback : s.script.removeFirst(), ready)
        }
        for c in ready { c.resume() }
        switch step {
        case .answer(let response): return response
        case .fail(let error): throw error
        case .hold:
            let outcome = await withTaskCancellationHandler {
                await withCheckedContinuation { c in state.withLock { $0.held.append(c) } }
            } onCancel: {
                state.withLock { $0.cancellations += 1 }
            }
            return try outcome.get()
        }
    }

    func scene(mapId: String) async throws -> SceneContent {
        let result = state.withLock { s -> Result<SceneContent, VPSBackendError> in
            s.sceneCalls += 1
            return s.sceneScript.isEmpty ? s.sceneFallback : s.sceneScript.removeFirst()
        }
        return try result.get()
    }
}

extension ScriptedBackend.Step {
    /// Localized at frame `frame`'s ground truth.
    static func fix(_ frame: Int, section: String = "hall") -> Self { .answer(Fixtures.fix(frame, section: section)) }
    static func notLocalized(_ reason: String) -> Self { .answer(.notLocalized(reason: reason)) }
}
