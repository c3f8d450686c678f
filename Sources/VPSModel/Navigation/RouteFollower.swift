import Foundation
import Geometry

/// Follows a camera along a `Route`: which waypoints it has passed, how far it still has
/// to go, which way to turn, and when it has arrived.
///
/// Distances are measured on the floor plane (the map's x–z plane; +y is up): a camera is
/// held about 1.5 m above the floor nodes, and that height must not count against the
/// arrival radius. Progress is monotone: a waypoint once passed stays passed.
///
/// A waypoint counts as passed when the camera comes within `waypointRadius` of it, or
/// when the camera is past it along the next leg and nearer that leg than the one leading
/// in (so cutting a corner or starting beside the first node does not strand guidance on
/// it). Reaching the destination within `arrivalRadius` arrives, whatever was skipped.
public struct RouteFollower: Sendable, Hashable {
    public struct Options: Sendable, Hashable {
        /// Metres from an intermediate waypoint at which it counts as passed.
        public var waypointRadius: Double
        /// Metres from the destination at which the camera has arrived.
        public var arrivalRadius: Double
        /// Headings within this many degrees of the way ahead mean "continue straight".
        public var straightAngle: Double
        /// Headings beyond this many degrees from the way ahead mean "turn around".
        public var turnAroundAngle: Double

        public init(waypointRadius: Double = 1.0, arrivalRadius: Double = 1.0,
                    straightAngle: Double = 30, turnAroundAngle: Double = 150) {
            self.waypointRadius = waypointRadius; self.arrivalRadius = arrivalRadius
            self.straightAngle = straightAngle; self.turnAroundAngle = turnAroundAngle
        }
    }

    /// Which way the next waypoint lies from where the camera faces.
    public enum Turn: String, Sendable, Hashable, Codable {
        case straight, left, right, around
    }

    /// Where guidance stands after an update.
    public struct Progress: Sendable, Hashable {
        /// Waypoints passed by this update, in route order (the destination excluded).
        public var passed: [String]
        /// True once the destination has been reached.
        public var hasArrived: Bool
        /// Node ids still ahead, the next first, the destination last; empty on arrival.
        public var remainingWaypoints: [String]
        /// Floor-plane metres from the camera to the next waypoint and on along the route.
        public var remainingDistance: Double
        /// Which way to turn towards the next waypoint; nil on arrival or when the camera
        /// looks straight up or down (no heading on the floor plane).
        public var turn: Turn?
    }

    public let route: Route
    public let options: Options
    /// Index into `route.nodes` of the next waypoint.
    public private(set) var nextIndex = 0
    public private(set) var hasArrived = false

    public init(route: Route, options: Options = Options()) {
        self.route = route; self.options = options
    }

    /// Advances guidance to a new camera pose (`T_map_camera`).
    public mutating func update(cameraPose: Pose) -> Progress {
        let p = floor(cameraPose.translation)
        let points = route.nodes.map { floor($0.position) }
        let last = points.count - 1
        var passed: [String] = []
        if !hasArrived {
            if distance(p, points[last]) <= options.arrivalRadius {
                hasArrived = true
                nextIndex = last
            } else {
                while nextIndex < last, isPassed(nextIndex, by: p, points) {
                    passed.append(route.nodes[nextIndex].id)
                    nextIndex += 1
                }
            }
        }
        guard !hasArrived else {
            return Progress(passed: passed, hasArrived: true, remainingWaypoints: [], remainingDistance: 0, turn: nil)
        }
        var remaining = distance(p, points[nextIndex])
        for i in nextIndex..<last { remaining += distance(points[i], points[i + 1]) }
        return Progress(passed: passed, hasArrived: false, remainingWaypoints: route.nodes[nextIndex...].map(\.id),
                        remainingDistance: remaining, turn: turn(from: cameraPose, towards: points[nextIndex]))
    }

    /// Which way `target` (on the floor plane) lies from where the camera faces.
    public func turn(from cameraPose: Pose, towards target: SIMD3<Double>) -> Turn? {
        // The camera looks along its +z axis (OpenCV convention).
        let forward = floor(cameraPose.rotation.rotate(SIMD3(0, 0, 1)))
        let way = floor(target) - floor(cameraPose.translation)
        guard Geometry.length(forward) > 1e-6 else { return nil }
        guard Geometry.length(way) > 1e-9 else { return .straight }
        // Signed angle about +y (up): positive is counter-clockwise seen from above, a left turn.
        let degrees = atan2(cross(forward, way).y, dot(forward, way)) * 180 / .pi
        if abs(degrees) <= options.straightAngle { return .straight }
        if abs(degrees) >= options.turnAroundAngle { return .around }
        return degrees > 0 ? .left : .right
    }

    private func isPassed(_ i: Int, by p: SIMD3<Double>, _ points: [SIMD3<Double>]) -> Bool {
        if distance(p, points[i]) <= options.waypointRadius { return true }
        let outgoing = (points[i], points[i + 1])
        guard parameter(of: p, on: outgoing) > 0 else { return false }
        guard i > 0 else { return true }
        return distance(p, toSegment: outgoing) < distance(p, toSegment: (points[i - 1], points[i]))
    }
}

/// The point on the floor plane (y dropped to 0).
private func floor(_ v: SIMD3<Double>) -> SIMD3<Double> { SIMD3(v.x, 0, v.z) }

private func distance(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> Double { Geometry.length(a - b) }

/// Where the projection of `p` falls on segment `s` (0 at its start, 1 at its end).
private func parameter(of p: SIMD3<Double>, on s: (SIMD3<Double>, SIMD3<Double>)) -> Double {
    let d = s.1 - s.0
    let l2 = dot(d, d)
    return l2 < 1e-18 ? 0 : dot(p - s.0, d) / l2
}

private func distance(_ p: SIMD3<Double>, toSegment s: (SIMD3<Double>, SIMD3<Double>)) -> Double {
    let t = min(1, max(0, parameter(of: p, on: s)))
    return distance(p, s.0 + (s.1 - s.0) * t)
}
