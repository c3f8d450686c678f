
extension ARSessionHost {
    /// Runs the scripted actions stamped strictly before `time`.
    func runScript(before time: Duration) async {
        while isRunning, scriptActionsRun < script.count, Self.time(of: script[scriptActionsRun]) < time {
            await runNextScriptAction()
        }
    }

    /// Runs the scripted actions stamped at or before `time`.
    func runScript(through time: Duration) async {
        while isRunning, scriptActionsRun < script.count, Self.time(of: script[scriptActionsRun]) <= time {
            await runNextScriptAction()
        }
    }

    /// Performs the next scripted action as the user would: through the SDK's public calls.
    /// Calls the session refuses (after a shutdown, say) are skipped: the state and events
    /// already tell what happened.
    func runNextScriptAction() async {
        guard isRunning, scriptActionsRun < script.count else { return }
        let action = script[scriptActionsRun]
        scriptActionsRun += 1
        replayTime = max(replayTime, Self.time(of: action))
        switch action.action {
        case .tap(let x, let y):
            _ = try? tap(at: SIMD2(x, y))
        case .startNavigation(let node):
            try? startNavigation(to: node)
        case .stopNavigation:
            try? stopNavigation()
        case .reset:
            await sdk.reset()
        case .shutdown:
            await sdk.shutdown()
        }
    }
}
