import Foundation
import VPSModel

/// A recorded session named on the command line.
enum SessionArgument {
    /// Fails on the first problem every reader of a session refuses
    /// (`RecordedSession.contentProblems`), naming the file and the field:
    /// `DIR/session.json: frames[3].timestamp: …`.
    static func refuseUnusable(_ session: RecordedSession, at url: URL) throws {
        guard let problem = session.contentProblems.first else { return }
        let file = RecordedSession.sessionFile(url).path
        throw CommandFailure("\(file): \(problem.location): \(problem.message)")
    }
}
