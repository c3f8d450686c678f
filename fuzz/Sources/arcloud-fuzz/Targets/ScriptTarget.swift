import Foundation
import Formats
import Localization
import Storage
import VPSModel

extension FuzzTarget {
    /// A `simulate --script` file (a JSON array of actions, or an object with a `script`
    /// array), read as the command reads it (`ScriptFile`), then played over a two-frame
    /// session on the virtual clock.
    static let script = FuzzTarget(name: "script", summary: "simulate --script file, played over a session") { bytes in
        guard let actions = try? ScriptFile.decode(Data(bytes), fileName: "script.json") else { return }
        var session = SimulationFixture.twoFrameSession
        session.script = actions
        SimulationFixture.simulate(session)
    }
}
