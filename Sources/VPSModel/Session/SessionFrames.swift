/// A session's frames as the batch paths read them: in order from any index, one at a time,
/// whether they are all in memory (an array) or read again from `session.json` as they are
/// needed (`StreamedSession`), so that a long session's frames are never all held.
public protocol SessionFrames: Sendable {
    var count: Int { get }
    /// The frames from index `start` on, in order: each call of the function returned gives
    /// the next, nil after the last. Each reader is for one thread.
    func reader(from start: Int) throws -> () throws -> RecordedSession.Frame?
}

extension SessionFrames {
    /// Calls `body` with each frame from `start` on and its index, in order.
    public func forEach(from start: Int = 0, _ body: (Int, RecordedSession.Frame) throws -> Void) throws {
        let next = try reader(from: start)
        var i = start
        while let frame = try next() {
            try body(i, frame)
            i += 1
        }
    }
}

extension Array: SessionFrames where Element == RecordedSession.Frame {
    public func reader(from start: Int) -> () throws -> RecordedSession.Frame? {
        var i = start
        return {
            guard i < count else { return nil }
            defer { i += 1 }
            return self[i]
        }
    }
}
