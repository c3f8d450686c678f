import Foundation
import Geometry
import GraffityARCloud
import VPSModel

/// The JSON forms of the SDK's values in `arcloud simulate` output (docs/simulate.md lists
/// every field).
public enum SimulationJSON {
    /// Rounded to `places` decimals: lines stay short and do not show float noise.
    public static func number(_ value: Double, places: Int) -> JSONLineValue {
        let scale = pow(10, Double(places))
        return .number((value * scale).rounded() / scale)
    }

    /// `[x, y, z]`, each rounded to `places` decimals.
    public static func vector(_ v: SIMD3<Double>, places: Int = 3) -> JSONLineValue {
        .array([number(v.x, places: places), number(v.y, places: places), number(v.z, places: places)])
    }

    /// The string, or null.
    public static func optional(_ s: String?) -> JSONLineValue { s.map(JSONLineValue.string) ?? .null }

    /// `{"t": [x, y, z], "q": [x, y, z, w]}`: T_map_camera, translation to 4 decimals
    /// (map units), the Hamilton quaternion to 6.
    public static func pose(_ p: Pose) -> JSONLineValue {
        .object([("t", vector(p.translation, places: 4)),
                 ("q", .array([p.rotation.x, p.rotation.y, p.rotation.z, p.rotation.w].map { number($0, places: 6) }))])
    }

    /// The fields of a state snapshot (after `kind` and `time`).
    public static func stateFields(_ s: GraffityARCloud.State) -> [(String, JSONLineValue)] {
        [("isSceneReady", .bool(s.isSceneReady)),
         ("vpsState", .string(vpsStateName(s.vpsState))),
         ("sectionId", optional(s.vpsState.sectionId)),
         ("navigation", s.navigation.map(navigation) ?? .null),
         ("lastError", s.lastError.map(error) ?? .null),
         ("isShutDown", .bool(s.isShutDown))]
    }

    /// The VPS state's case name.
    public static func vpsStateName(_ v: VPSState) -> String {
        switch v {
        case .notStarted: "notStarted"
        case .initializing: "initializing"
        case .localizing: "localizing"
        case .localized: "localized"
        case .failed: "failed"
        }
    }

    /// Destination, remaining waypoints and distance (map units, 2 decimals), hint, arrival.
    public static func navigation(_ n: NavigationState) -> JSONLineValue {
        .object([("destination", .string(n.destination)),
                 ("remainingWaypoints", .array(n.remainingWaypoints.map(JSONLineValue.string))),
                 ("remainingDistance", n.remainingDistance.map { number($0, places: 2) } ?? .null),
                 ("hint", optional(n.hint?.rawValue)),
                 ("hasArrived", .bool(n.hasArrived))])
    }

    /// `{"code": …, "message": …}`.
    public static func error(_ e: ARCloudError) -> JSONLineValue {
        .object([("code", .string(errorCode(e))), ("message", .string(e.localizedDescription))])
    }

    /// The error's case name: a stable code for scripts to match on.
    public static func errorCode(_ e: ARCloudError) -> String {
        switch e {
        case .invalidAccessToken: "invalidAccessToken"
        case .accessDenied: "accessDenied"
        case .mapNotFound: "mapNotFound"
        case .backendUnavailable: "backendUnavailable"
        case .requestRejected: "requestRejected"
        case .invalidResponse: "invalidResponse"
        case .localizerUnavailable: "localizerUnavailable"
        case .frameUnavailable: "frameUnavailable"
        case .sessionShutDown: "sessionShutDown"
        case .hostNotLoaded: "hostNotLoaded"
        case .hostRemoved: "hostRemoved"
        case .invalidUsage: "invalidUsage"
        }
    }

    /// An event's name (`event` field) and its own fields.
    public static func event(_ e: ARCloudEvent) -> (name: String, fields: [(String, JSONLineValue)]) {
        switch e {
        case .localization(.localized(let frameId, let sectionId, let pose, let inliers)):
            return ("localization.localized", [("frameId", .string(frameId)), ("sectionId", .string(sectionId)),
                                               ("inliers", .integer(inliers)), ("pose", self.pose(pose))])
        case .localization(.notLocalized(let frameId, let reason)):
            return ("localization.notLocalized", [("frameId", .string(frameId)), ("reason", .string(reason))])
        case .localization(.failed(let e)):
            return ("localization.failed", [("error", error(e))])
        case .localization(.reset):
            return ("localization.reset", [])
        case .tap(let t):
            return ("tap", [("pixel", .array([number(t.pixel.x, places: 1), number(t.pixel.y, places: 1)])),
                            ("objectId", optional(t.objectId)),
                            ("hitPoint", t.hitPoint.map { vector($0) } ?? .null),
                            ("missReason", optional(t.missReason))])
        case .collection(let c):
            return ("collection", [("objectId", .string(c.objectId)),
                                   ("payload", .object(c.payload.sorted { $0.key < $1.key }.map { ($0.key, .string($0.value)) }))])
        case .link(let l):
            return ("link", [("objectId", .string(l.objectId)), ("url", .string(l.url))])
        case .navigation(.started(let destination, let route)):
            return ("navigation.started", [("destination", .string(destination)),
                                           ("route", .array(route.map(JSONLineValue.string)))])
        case .navigation(.waypointReached(let node)):
            return ("navigation.waypointReached", [("nodeId", .string(node))])
        case .navigation(.arrived(let destination)):
            return ("navigation.arrived", [("destination", .string(destination))])
        case .navigation(.failed(let destination, let reason)):
            return ("navigation.failed", [("destination", .string(destination)), ("reason", .string(reason))])
        case .navigation(.stopped(let destination)):
            return ("navigation.stopped", [("destination", .string(destination))])
        }
    }
}
