import Geometry

extension RecordedSession {
    /// What makes this session unusable by any command, found without reading an image: an
    /// invalid camera (`CameraIntrinsics.problem`), no frames, a frame or script time the
    /// replay clock cannot hold (`SessionTime`), a script longer than
    /// `ScriptLimits.maxActions`. Locations are field paths inside `session.json`
    /// (`camera`, `frames`, `frames[3].timestamp`, `script`).
    ///
    /// `dataset validate` lists them all; `localize`, `simulate` and the SDK's host
    /// factories refuse the session on the first, so every reader refuses the same sessions.
    public var contentProblems: [DatasetProblem] {
        var problems: [DatasetProblem] = []
        if let p = camera.problem { problems.append(DatasetProblem(.invalidCamera, at: "camera", p)) }
        if frames.isEmpty { problems.append(DatasetProblem(.noFrames, at: "frames", "the session has no frames")) }
        if let p = ScriptLimits.problem(count: script?.count ?? 0) {
            problems.append(DatasetProblem(.scriptTooLong, at: "script", p))
        }
        return problems + SessionTime.problems(of: self)
    }
}
