import Foundation
import Formats
import Localization
import Storage
import VPSModel

extension FuzzTarget {
    /// `session.json`: read as `load(from:)` reads it (a frame at a time), checked against
    /// decoding the whole input, validated against a folder holding two small frames, then
    /// replayed by the SDK's session host on the virtual clock (what `dataset validate`
    /// and `simulate` do with it).
    static let session = FuzzTarget(name: "session", summary: "session.json, validated and simulated") { bytes in
        let session: RecordedSession
        do { session = try RecordedSession.decode(Data(bytes)) } catch {
            precondition(error is DatasetProblem, "reading session.json threw \(error), not a DatasetProblem")
            return
        }
        // What the reader accepts, JSONDecoder on the whole input accepts too, as the same
        // session (the reader refuses more: JSON that Foundation lets through, a member twice).
        precondition((try? JSONDecoder().decode(RecordedSession.self, from: Data(bytes))) == session,
                     "the session read a frame at a time differs from the whole input decoded")
        _ = SessionValidator.validate(session, directory: SimulationFixture.folder)
        SimulationFixture.simulate(session)
    }
}
