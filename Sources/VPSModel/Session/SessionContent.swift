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
        headerProblems(frameCount: frames.count) + SessionTime.problems(of: self)
    }

    /// The content problems found without the frames (their count aside): camera, no
    /// frames, script length. The frames' times come after them (`SessionTime`).
    package func headerProblems(frameCount: Int) -> [DatasetProblem] {
        var problems: [DatasetProblem] = []
        if let p = camera.problem { problems.append(DatasetProblem(.invalidCamera, at: "camera", p)) }
        if frameCount == 0 { problems.append(DatasetProblem(.noFrames, at: "frames", "the session has no frames")) }
        if let p = ScriptLimits.problem(count: script?.count ?? 0) {
            problems.append(DatasetProblem(.scriptTooLong, at: "script", p))
        }
        return problems
    }
}

extension StreamedSession {
    /// `RecordedSession.contentProblems` of the whole session, the frames' times read in one
    /// pass over them; at most `limit` (the first is all that `localize` needs).
    public func contentProblems(limit: Int = .max) throws -> [DatasetProblem] {
        var problems = header.headerProblems(frameCount: count)
        guard problems.count < limit else { return Array(problems.prefix(limit)) }
        let next = try reader(from: 0)
        var i = 0
        while problems.count < limit, let frame = try next() {
            if let p = SessionTime.problem(ofFrame: frame, at: i) { problems.append(p) }
            i += 1
        }
        return Array((problems + SessionTime.problems(ofScript: header.script)).prefix(limit))
    }
}
