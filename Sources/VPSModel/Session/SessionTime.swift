/// Session times (frame timestamps, script action times) as the replay clock holds them:
/// whole microseconds in an `Int64`.
///
/// A time read from a file is a `Double` that may be anything: 1e308 does not fit an
/// `Int64` of microseconds and converting it unchecked traps. Every conversion goes
/// through `microseconds(_:)`, and `problems(of:)` lists the times that would not
/// convert, so validation and the simulator refuse the same sessions.
public enum SessionTime {
    /// Largest session time accepted, in seconds (either sign): about 31,700 years, far
    /// beyond any recording and far inside `Int64` microseconds (about 9.2e12 s).
    public static let maxSeconds = 1e12   // problem(_:) spells it out: keep the two in step

    /// `seconds` in whole microseconds, or nil when it is not finite or beyond ±`maxSeconds`.
    public static func microseconds(_ seconds: Double) -> Int64? {
        guard seconds.isFinite, abs(seconds) <= maxSeconds else { return nil }
        return Int64((seconds * 1e6).rounded())
    }

    /// Why `seconds` is not a session time, or nil when it is.
    public static func problem(_ seconds: Double) -> String? {
        if !seconds.isFinite { return "\(seconds) is not a finite number of seconds" }
        if abs(seconds) > maxSeconds { return "\(seconds) s is beyond ±1e12 s (about 31,700 years), the most a session time may be" }
        return nil
    }

    /// Every frame timestamp and script time of `session` that is not a session time,
    /// located as `frames[3].timestamp` or `script[0].time`.
    public static func problems(of session: RecordedSession) -> [DatasetProblem] {
        session.frames.enumerated().compactMap { problem(ofFrame: $1, at: $0) } + problems(ofScript: session.script)
    }

    /// The problem of frame `i`'s timestamp, located as `frames[3].timestamp`; nil when it is a session time.
    public static func problem(ofFrame frame: RecordedSession.Frame, at i: Int) -> DatasetProblem? {
        problem(frame.timestamp).map {
            DatasetProblem(.invalidTime, at: "frames[\(i)].timestamp", "timestamp of frame '\(frame.id)': \($0)")
        }
    }

    /// The script's times that are not session times, located as `script[0].time`.
    public static func problems(ofScript script: [ScriptAction]?) -> [DatasetProblem] {
        var out: [DatasetProblem] = []
        for (i, action) in (script ?? []).enumerated() {
            if let p = problem(action.time) {
                out.append(DatasetProblem(.invalidTime, at: "script[\(i)].time", "time of script action \(i): \(p)"))
            }
        }
        return out
    }
}
