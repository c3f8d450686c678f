import Foundation
import VPS

extension FuzzTarget {
    /// A `simulate --script` file (a JSON array of actions, or an object with a `script`
    /// array), played over a two-frame session on the virtual clock.
    static let script = FuzzTarget(name: "script", summary: "simulate --script file, played over a session") { bytes in
        struct Wrapped: Decodable { var script: [ScriptAction] }
        let data = Data(bytes)
        guard let actions = (try? JSONDecoder().decode([ScriptAction].self, from: data))
                ?? (try? JSONDecoder().decode(Wrapped.self, from: data))?.script else { return }
        var session = SimulationFixture.twoFrameSession
        session.script = actions
        SimulationFixture.simulate(session)
    }
}
