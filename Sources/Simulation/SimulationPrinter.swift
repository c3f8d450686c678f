import Foundation
import GraffityARCloud
import Support

/// Writes what a simulated session does as JSON lines on standard output: each state
/// snapshot (through a state subscription, which also sees the snapshot a shutdown
/// publishes) and each delegate event, stamped with the replay time and the frame on
/// screen. Counts what it printed for the summary.
@MainActor
public final class SimulationPrinter: GraffityARCloudDelegate {
    /// The host whose replay time and frame stamp each line.
    public weak var host: ARSessionHost?
    /// Lines written.
    public private(set) var lines = 0
    /// Events written, by name.
    public private(set) var eventCounts: [String: Int] = [:]
    /// Ids of the objects collected, in order.
    public private(set) var collected: [String] = []
    /// URLs of the links opened, in order.
    public private(set) var opened: [String] = []
    private let output: FileHandle

    public init(output: FileHandle = .standardOutput) { self.output = output }

    /// A `state` line.
    public func printState(_ state: GraffityARCloud.State) {
        write(kind: "state", SimulationJSON.stateFields(state))
    }

    /// The `summary` line: `fields` after kind, time and frame.
    public func printSummary(_ fields: [(String, JSONLineValue)]) {
        write(kind: "summary", fields)
    }

    private func printEvent(_ event: ARCloudEvent) {
        let (name, fields) = SimulationJSON.event(event)
        eventCounts[name, default: 0] += 1
        write(kind: "event", [("event", .string(name))] + fields)
    }

    private func write(kind: String, _ fields: [(String, JSONLineValue)]) {
        let time = (host?.replayTime).map { SimulationJSON.number($0.seconds, places: 3) } ?? .number(0)
        let line = JSONLineValue.object([("kind", .string(kind)), ("time", time),
                                         ("frame", SimulationJSON.optional(host?.currentFrame?.id))] + fields)
        output.write(Data((line.text + "\n").utf8))
        lines += 1
    }

    // MARK: GraffityARCloudDelegate (states come through the subscription)

    public func graffityARCloud(_ sdk: GraffityARCloud, didUpdateLocalization event: LocalizationEvent) {
        printEvent(.localization(event))
    }
    public func graffityARCloud(_ sdk: GraffityARCloud, didTap event: TapEvent) { printEvent(.tap(event)) }
    public func graffityARCloud(_ sdk: GraffityARCloud, didCollect event: CollectionEvent) {
        collected.append(event.objectId)
        printEvent(.collection(event))
    }
    public func graffityARCloud(_ sdk: GraffityARCloud, didOpenLink event: LinkEvent) {
        opened.append(event.url)
        printEvent(.link(event))
    }
    public func graffityARCloud(_ sdk: GraffityARCloud, didUpdateNavigation event: NavigationEvent) {
        printEvent(.navigation(event))
    }
}
