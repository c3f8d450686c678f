import Foundation
import GraffityARCloud

/// A condition `arcloud simulate --expect` checks on the session's final state.
public enum SimulationExpectation: String, Sendable, CaseIterable {
    /// VPS is localized (in any section).
    case localized
    /// VPS is still localizing (no fix, no failure).
    case localizing
    /// VPS stopped on an error.
    case failed
    /// No host is running (e.g. after a scripted shutdown).
    case notStarted
    /// The scene content is loaded.
    case sceneReady
    /// Navigation runs and has not arrived.
    case navigating
    /// Navigation reached its destination.
    case arrived
    /// The session was shut down (scripted, or by a rejected token).
    case shutdown
    /// The last error is `invalidAccessToken`.
    case invalidAccessToken
    /// Some error is reported in `lastError`.
    case error
    /// No error is reported.
    case noError

    /// True when an error in the final state is what the caller expects.
    public var expectsError: Bool { self == .failed || self == .invalidAccessToken || self == .error }

    /// Whether the condition holds for the final `state` (and whether the SDK was shut down).
    public func holds(for state: GraffityARCloud.State, isShutDown: Bool) -> Bool {
        switch self {
        case .localized: state.vpsState.isLocalized
        case .localizing: state.vpsState == .localizing
        case .failed: if case .failed = state.vpsState { true } else { false }
        case .notStarted: state.vpsState == .notStarted
        case .sceneReady: state.isSceneReady
        case .navigating: state.navigation.map { !$0.hasArrived } ?? false
        case .arrived: state.navigation?.hasArrived ?? false
        case .shutdown: isShutDown
        case .invalidAccessToken: state.lastError == .invalidAccessToken
        case .error: state.lastError != nil
        case .noError: state.lastError == nil
        }
    }

    /// An unknown condition in `--expect`: the whole message, naming the option and the
    /// conditions there are.
    public struct UnknownCondition: Error, Sendable, CustomStringConvertible {
        public let description: String
    }

    /// Parses `a,b,c`.
    public static func parse(_ list: String) throws(UnknownCondition) -> [SimulationExpectation] {
        try list.split(separator: ",").map { (word) throws(UnknownCondition) -> SimulationExpectation in
            let name = word.trimmingCharacters(in: .whitespaces)
            guard let e = SimulationExpectation(rawValue: name) else {
                throw UnknownCondition(description: "unknown --expect '\(name)'; use one or more of "
                                           + allCases.map(\.rawValue).joined(separator: ","))
            }
            return e
        }
    }
}
