import Foundation
import Formats
import Localization
import Storage
import VPSModel

extension FuzzTarget {
    /// `session.json`: decoded, validated against a folder holding two small frames, then
    /// replayed by the SDK's session host on the virtual clock (what `dataset validate`
    /// and `simulate` do with it).
    static let session = FuzzTarget(name: "session", summary: "session.json, validated and simulated") { bytes in
        guard let session = try? RecordedSession.decode(Data(bytes)) else { return }
        _ = SessionValidator.validate(session, directory: SimulationFixture.folder)
        SimulationFixture.simulate(session)
    }
}
