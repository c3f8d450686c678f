import Geometry
import Testing
import VPSModel

@Suite("Route follower")
struct RouteFollowerTests {
    /// An L: from the origin 10 m along +x, then 10 m along +z.
    static let route = Route(nodes: [RoutePlannerTests.node("start", 0, 0), RoutePlannerTests.node("corner", 10, 0),
                                     RoutePlannerTests.node("end", 10, 10)], cost: 20)

    /// An upright camera 1.5 m above the floor at (x, z), looking at floor point (tx, tz).
    static func camera(_ x: Double, _ z: Double, looking tx: Double, _ tz: Double) -> Pose {
        .lookAt(eye: SIMD3(x, 1.5, z), target: SIMD3(tx, 1.5, tz))
    }

    @Test func walkingTheRoutePassesEachWaypointThenArrives() {
        var follower = RouteFollower(route: Self.route)
        var passed: [String] = []
        var distances: [Double] = []
        var arrivedAt: Int?
        // Walk from 1 m before the start along the L, 0.25 m per step.
        let firstLeg: [SIMD2<Double>] = (0...44).map { i in SIMD2(-1 + 0.25 * Double(i), 0) }
        let secondLeg: [SIMD2<Double>] = (1...40).map { i in SIMD2(10, 0.25 * Double(i)) }
        let path = firstLeg + secondLeg
        for (i, p) in path.enumerated() {
            let ahead = i + 1 < path.count ? path[i + 1] : p + (p - path[i - 1])
            let progress = follower.update(cameraPose: Self.camera(p.x, p.y, looking: ahead.x, ahead.y))
            passed += progress.passed
            if progress.hasArrived, arrivedAt == nil { arrivedAt = i }
            if !progress.hasArrived { distances.append(progress.remainingDistance) }
        }
        #expect(passed == ["start", "corner"])
        // Arrival 1 m (the radius) before the end: at z = 9, step 44 + 36.
        #expect(arrivedAt == 80)
        #expect(abs(distances[0] - 21) < 1e-9, "1 m to the start, then 20 m of route")
        #expect(zip(distances, distances.dropFirst()).allSatisfy { $0.1 <= $0.0 + 1e-9 })
        #expect(follower.hasArrived)
        // Once arrived, it stays arrived.
        #expect(follower.update(cameraPose: Self.camera(0, 0, looking: 1, 0)).hasArrived)
    }

    @Test func theHeightOfTheCameraDoesNotCount() {
        var follower = RouteFollower(route: Self.route)
        // 0.5 m (on the floor) from the end, 1.5 m above it: arrived.
        let p = follower.update(cameraPose: Self.camera(10, 9.5, looking: 10, 12))
        #expect(p.hasArrived && p.remainingDistance == 0 && p.remainingWaypoints.isEmpty && p.turn == nil)
    }

    @Test func startingBesideTheFirstNodeSkipsIt() {
        var follower = RouteFollower(route: Self.route)
        let p = follower.update(cameraPose: Self.camera(3, 2, looking: 10, 0))
        #expect(p.passed == ["start"])
        #expect(p.remainingWaypoints == ["corner", "end"])
        #expect(abs(p.remainingDistance - ((49.0 + 4.0).squareRoot() + 10)) < 1e-9)
    }

    @Test func walkingAlongTheFirstLegDoesNotPassTheCornerEarly() {
        var follower = RouteFollower(route: Self.route)
        // Slightly to the +z side of the first leg: "past" the corner along the second leg,
        // but much nearer the first leg.
        let p = follower.update(cameraPose: Self.camera(5, 0.3, looking: 10, 0))
        #expect(p.remainingWaypoints == ["corner", "end"])
        // Cutting the corner: nearer the second leg now.
        let cut = follower.update(cameraPose: Self.camera(8.5, 3, looking: 10, 10))
        #expect(cut.passed == ["corner"])
        #expect(cut.remainingWaypoints == ["end"])
    }

    @Test func turnHintsFollowTheCameraHeading() {
        var follower = RouteFollower(route: Self.route)
        // At the start's floor spot is within the radius: next is the corner at +x.
        #expect(follower.update(cameraPose: Self.camera(0, 0, looking: 5, 0)).turn == .straight)
        #expect(follower.update(cameraPose: Self.camera(0, 0, looking: -5, 0)).turn == .around)
        // Facing -z with +x ahead: +x is on the camera's left? The camera's right is
        // forward × up = (0,0,-1) × (0,1,0) = (+1, 0, 0): the corner is to the right.
        #expect(follower.update(cameraPose: Self.camera(0, 0, looking: 0, -5)).turn == .right)
        #expect(follower.update(cameraPose: Self.camera(0, 0, looking: 0, 5)).turn == .left)
        // Cross-check against the camera's own x axis (image right) for an arbitrary heading.
        let pose = Self.camera(2, 0, looking: 3, 4)
        let right = pose.rotation.rotate(SIMD3(1, 0, 0))
        let target = pose.translation + right * 5 + pose.rotation.rotate(SIMD3(0, 0, 1)) * 1
        #expect(follower.turn(from: pose, towards: target) == .right)
        #expect(follower.turn(from: pose, towards: pose.translation - right * 5) == .left)
    }

    @Test func aRouteOfOneNode() {
        let here = Route(nodes: [RoutePlannerTests.node("x", 4, 0)], cost: 0)
        var follower = RouteFollower(route: here, options: .init(arrivalRadius: 0.5))
        let far = follower.update(cameraPose: Self.camera(0, 0, looking: 4, 0))
        #expect(far.remainingWaypoints == ["x"] && abs(far.remainingDistance - 4) < 1e-9 && far.turn == .straight)
        #expect(follower.update(cameraPose: Self.camera(3.6, 0, looking: 4, 0)).hasArrived)
    }
}
