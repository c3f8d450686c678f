import Foundation
import GraffityARCloud
import Support
import VPSModel

/// `arcloud simulate`: a recorded session replayed through the SDK as an app would run it,
/// every state snapshot and event written as a JSON line (`SimulationPrinter`), then a
/// summary line; the expectations are judged on the final state.
public enum SessionSimulation {
    /// How a replay ended.
    public struct Outcome: Sendable {
        /// 0 when the session ended without an unexpected error and every expectation
        /// held, else 1.
        public var status: Int32
        /// One line for stderr: frames shown, VPS requests and answers, navigation,
        /// collections, links, the final state, the error and unmet expectations.
        public var summary: String
    }

    /// The SDK could not make the session's host (the SDK's own description).
    public struct Failure: Error, Sendable, CustomStringConvertible {
        public let description: String
    }

    /// Replays `session` (its images in `directory`) with `configuration` on `clock`,
    /// writing the JSON lines to `output`.
    @MainActor
    public static func run(session: RecordedSession, directory: URL, configuration: GraffityARCloud.Configuration,
                           clock: ReplayClock, expectations: [SimulationExpectation],
                           output: FileHandle = .standardOutput) async throws -> Outcome {
        let started = ContinuousClock.now
        let sdk = GraffityARCloud(configuration: configuration)
        let printer = SimulationPrinter(output: output)
        sdk.delegate = printer
        let subscription = sdk.subscribe { state in printer.printState(state) }
        let host: ARSessionHost
        do {
            switch clock {
            case .virtual: host = try sdk.makeVirtualReplay(session: session, directory: directory)
            case .realtime: host = try sdk.makeViewController(session: session, directory: directory)
            }
        } catch {
            throw Failure(description: error.localizedDescription)
        }
        printer.host = host
        do {
            try await host.loadView()
            try await host.runToEnd()
        } catch ARCloudError.sessionShutDown {
            // A scripted shutdown or a rejected token: the output already says which.
        }
        let final = sdk.state
        subscription.cancel()

        let unmet = expectations.filter { !$0.holds(for: final, isShutDown: sdk.isShutDown) }
        let errorExpected = expectations.contains { $0.expectsError }
        let failedWithError = final.lastError != nil && !errorExpected
        let status: Int32 = unmet.isEmpty && !failedWithError ? 0 : 1
        let localized = printer.eventCounts["localization.localized"] ?? 0
        let presented = host.currentFrameIndex.map { $0 + 1 } ?? 0
        printer.printSummary([
            ("session", .string(session.name)),
            ("mapId", .string(configuration.mapId)),
            ("backend", .string(configuration.serverURL.map { "http \($0.absoluteString)" } ?? "embedded")),
            ("clock", .string(host.clock.rawValue)),
            ("frames", .integer(presented)),
            ("framesTotal", .integer(session.frames.count)),
            ("vpsRequests", .integer(host.vpsRequestCount)),
            ("localizedAnswers", .integer(localized)),
            ("scriptActions", .integer(host.scriptActionsRun)),
            ("scriptActionsTotal", .integer(host.script.count)),
            ("events", .object(printer.eventCounts.sorted { $0.key < $1.key }.map { ($0.key, .integer($0.value)) })),
            ("collected", .array(printer.collected.map(JSONLineValue.string))),
            ("linksOpened", .array(printer.opened.map(JSONLineValue.string))),
            ("finalState", .object(SimulationJSON.stateFields(final))),
            ("shutDown", .bool(sdk.isShutDown)),
            ("expect", .array(expectations.map { .string($0.rawValue) })),
            ("unmet", .array(unmet.map { .string($0.rawValue) })),
            ("exitStatus", .integer(Int(status))),
            ("wallSeconds", SimulationJSON.number((ContinuousClock.now - started).seconds, places: 3)),
        ])

        var words = ["\(presented)/\(session.frames.count) frames", "\(host.vpsRequestCount) VPS requests (\(localized) localized)"]
        if let nav = final.navigation {
            words.append(nav.hasArrived ? "arrived at \(nav.destination)" : "navigating to \(nav.destination)")
        }
        if !printer.collected.isEmpty { words.append("collected \(printer.collected.joined(separator: ", "))") }
        if !printer.opened.isEmpty { words.append("opened \(printer.opened.joined(separator: ", "))") }
        words.append("final: \(SimulationJSON.vpsStateName(final.vpsState))\(final.vpsState.sectionId.map { " \($0)" } ?? "")"
                     + (sdk.isShutDown ? ", shut down" : ""))
        if let error = final.lastError { words.append("error: \(SimulationJSON.errorCode(error))") }
        if !unmet.isEmpty { words.append("unmet --expect: \(unmet.map(\.rawValue).joined(separator: ","))") }
        return Outcome(status: status, summary: words.joined(separator: "; "))
    }
}
