import Foundation
import Geometry

/// Plans walking-camera trajectories through a `SceneLayout`: loops around rooms at a
/// chosen distance from the walls looking at them, walks through corridors looking ahead
/// with a sway to both sides, and straight strolls (down a street) that glance aside now
/// and then, joined smoothly. The camera is held at about 1.5 m with gentle pitch, roll
/// and step bob; an optional hand shake adds fast small rotations.
public struct TrajectoryPlanner: Sendable {
    /// Motion style of a trajectory.
    public struct Motion: Sendable, Hashable {
        /// Walking speed (m/s) and turning rate (rad/s) limits.
        public var speed: Double = 0.6
        public var turnRate: Double = 0.7
        /// Amplitude (radians) of the slow yaw sway around the viewing direction.
        public var sway: Double = 0.35
        /// Amplitude (radians) of the slow pitch variation, and the pitch it varies around.
        public var pitchAmplitude: Double = 0.09
        public var pitchOffset: Double = -0.03
        /// Hand shake: amplitude (radians) of 3–7 Hz rotation jitter.
        public var shake: Double = 0.002
        public init() {}
    }

    /// One piece of a route.
    public enum Leg: Sendable, Hashable {
        /// Around the room `space` at `inset` metres from its walls, looking at the walls;
        /// `clockwise` as seen from above, `phase` shifts the yaw sway.
        case loop(space: String, inset: Double, clockwise: Bool, phase: Double)
        /// Walk from the current position into `space` (through the doorway to it), looking ahead.
        case walk(to: String)
        /// Walk straight from `from` to `to` (floor points, no layout needed), looking along
        /// the way with a yaw sway of `motion.sway` over `swayPeriod` metres (`phase` shifts
        /// it), and turning aside for each of `glances`.
        case stroll(from: SIMD2<Double>, to: SIMD2<Double>, swayPeriod: Double, phase: Double, glances: [Glance])
    }

    /// A look aside during a stroll: `yaw` radians off the walking direction (> 0 turns
    /// toward +z), held for `hold` metres around `at` metres from the stroll's start, turned
    /// into and out of over `ramp` metres on either side.
    public struct Glance: Sendable, Hashable {
        public var at: Double
        public var yaw: Double
        public var hold: Double
        public var ramp: Double

        public init(at: Double, yaw: Double, hold: Double, ramp: Double = 1.5) {
            self.at = at; self.yaw = yaw; self.hold = hold; self.ramp = ramp
        }

        /// Share of the glance's yaw at `s` metres from the stroll's start (0…1).
        public func weight(at s: Double) -> Double {
            let d = abs(s - at) - hold / 2
            if d <= 0 { return 1 }
            if d >= ramp { return 0 }
            return 0.5 * (1 + cos(.pi * d / ramp))
        }
    }

    public let layout: SceneLayout
    public var motion = Motion()
    /// Camera height above the map's y = 0 (add the storey's elevation in a building).
    public var eyeHeight = 1.5
    private let step = 0.02  // metres (or the equivalent turning effort) per dense sample
    /// The layout's openings, computed once (a building has hundreds of spaces).
    private let openings: [SceneLayout.Opening]

    public init(layout: SceneLayout) {
        self.layout = layout
        openings = layout.openings
    }

    /// A raw route point before smoothing: floor position and desired yaw.
    private struct RoutePoint { var p: SIMD2<Double>; var yaw: Double }

    /// Builds the trajectory of `legs`, starting in the first leg's space.
    public func trajectory(_ legs: [Leg], seed: UInt64) -> CameraTrajectory {
        var rng = SeededRandom(seed: seed, stream: "trajectory")
        var route: [RoutePoint] = []
        var currentSpace: String? = nil
        for leg in legs {
            switch leg {
            case let .loop(spaceId, inset, clockwise, phase):
                guard let space = layout.space(spaceId) else { continue }
                let pts = loop(space, inset: inset, clockwise: clockwise, phase: phase,
                               startNear: route.last?.p ?? space.center)
                if let last = route.last, let first = pts.first { route += line(from: last.p, to: first.p, lookAhead: true) }
                route += pts
                currentSpace = spaceId
            case let .walk(target):
                guard let from = currentSpace, let path = doorwayPath(from: from, to: target) else { continue }
                var p = route.last?.p ?? layout.space(from)!.center
                for q in path {
                    route += line(from: p, to: q, lookAhead: true)
                    p = q
                }
                currentSpace = target
            case let .stroll(from, to, period, phase, glances):
                if let last = route.last { route += line(from: last.p, to: from, lookAhead: true) }
                route += stroll(from: from, to: to, period: period, phase: phase, glances: glances)
            }
        }
        return finish(route, rng: &rng)
    }

    // MARK: Route pieces

    /// Points of an inset rectangle loop, each looking at the nearest wall plus a sway.
    private func loop(_ s: SceneLayout.Space, inset: Double, clockwise: Bool, phase: Double,
                      startNear: SIMD2<Double>) -> [RoutePoint] {
        let ix = min(inset, s.size.x / 2 - 0.05), iz = min(inset, s.size.y / 2 - 0.05)
        let lo = s.min + SIMD2(ix, iz), hi = s.max - SIMD2(ix, iz)
        // Corners in one turning direction; reversed for the other.
        var corners = [SIMD2(lo.x, lo.y), SIMD2(lo.x, hi.y), SIMD2(hi.x, hi.y), SIMD2(hi.x, lo.y)]
        if clockwise { corners.reverse() }
        var pts: [SIMD2<Double>] = []
        for i in 0..<4 {
            let a = corners[i], b = corners[(i + 1) % 4]
            let n = max(1, Int((PlanarVector.length(b - a) / step).rounded()))
            for k in 0..<n { pts.append(a + (b - a) * (Double(k) / Double(n))) }
        }
        // Start at the point nearest to where the camera is.
        let start = pts.indices.min { PlanarVector.length(pts[$0] - startNear) < PlanarVector.length(pts[$1] - startNear) } ?? 0
        pts = Array(pts[start...] + pts[..<start])
        pts.append(pts[0])
        var travelled = 0.0
        var out: [RoutePoint] = []
        for (k, p) in pts.enumerated() {
            if k > 0 { travelled += PlanarVector.length(p - pts[k - 1]) }
            // Outward normal of the nearest wall.
            let d = [(p.x - s.min.x, SIMD2(-1.0, 0)), (s.max.x - p.x, SIMD2(1.0, 0)),
                     (p.y - s.min.y, SIMD2(0, -1.0)), (s.max.y - p.y, SIMD2(0, 1.0))].min { $0.0 < $1.0 }!.1
            let yaw = atan2(d.y, d.x) + motion.sway * sin(2 * .pi * travelled / 3.1 + phase)
            out.append(RoutePoint(p: p, yaw: yaw))
        }
        return out
    }

    /// A straight walk, looking along it with a sway (or keeping the last yaw when not `lookAhead`).
    private func line(from a: SIMD2<Double>, to b: SIMD2<Double>, lookAhead: Bool) -> [RoutePoint] {
        let len = PlanarVector.length(b - a)
        guard len > 1e-6 else { return [] }
        let heading = atan2(b.y - a.y, b.x - a.x)
        let n = max(1, Int((len / step).rounded()))
        return (1...n).map { k in
            let f = Double(k) / Double(n)
            return RoutePoint(p: a + (b - a) * f, yaw: heading + 1.1 * motion.sway * sin(2 * .pi * f * len / 2.4))
        }
    }

    /// A straight walk looking ahead with a slow sway and the glances' turns aside.
    private func stroll(from a: SIMD2<Double>, to b: SIMD2<Double>, period: Double, phase: Double,
                        glances: [Glance]) -> [RoutePoint] {
        let len = PlanarVector.length(b - a)
        guard len > 1e-6 else { return [] }
        let heading = atan2(b.y - a.y, b.x - a.x)
        let n = max(1, Int((len / step).rounded()))
        return (0...n).map { k in
            let s = len * Double(k) / Double(n)
            let aside = glances.reduce(0) { $0 + $1.yaw * $1.weight(at: s) }
            return RoutePoint(p: a + (b - a) * (s / len), yaw: heading + motion.sway * sin(2 * .pi * s / period + phase) + aside)
        }
    }

    /// Doorway waypoints from space `a` to space `b` through the fewest openings (spaces
    /// searched in layout order), ending at `b`'s centre. Between a doorway and a corridor
    /// the camera steps into the corridor first: the next doorway may be on the same wall.
    private func doorwayPath(from a: String, to b: String) -> [SIMD2<Double>]? {
        guard let target = layout.space(b), layout.space(a) != nil else { return nil }
        var previous: [String: (space: String, opening: SceneLayout.Opening)] = [:]
        var queue = [a], seen: Set<String> = [a], head = 0
        while head < queue.count, previous[b] == nil {
            let here = queue[head]
            head += 1
            for o in openings where o.between.0 == here || o.between.1 == here {
                let next = o.between.0 == here ? o.between.1 : o.between.0
                if seen.insert(next).inserted {
                    previous[next] = (here, o)
                    queue.append(next)
                }
            }
        }
        guard a == b || previous[b] != nil else { return nil }
        var hops: [(from: String, to: String, opening: SceneLayout.Opening)] = []
        var at = b
        while let p = previous[at] {
            hops.append((p.space, at, p.opening))
            at = p.space
        }
        var points: [SIMD2<Double>] = []
        for hop in hops.reversed() {
            guard let from = layout.space(hop.from), let to = layout.space(hop.to) else { return nil }
            let c = hop.opening.center
            if from.kind == .corridor && to.kind == .doorway { points.append(c + stepInto(from, at: hop.opening)) }
            points.append(c)
            if from.kind == .doorway && to.kind == .corridor { points.append(c + stepInto(to, at: hop.opening)) }
        }
        return points + [target.center]
    }

    /// From an opening of `space` about a metre into it, square to the opening.
    private func stepInto(_ space: SceneLayout.Space, at opening: SceneLayout.Opening) -> SIMD2<Double> {
        let d = PlanarVector.normalize(opening.to - opening.from)
        var n = SIMD2(-d.y, d.x)
        if PlanarVector.dot(n, space.center - opening.center) < 0 { n = -n }
        let depth = abs(n.x) > 0.5 ? space.size.x : space.size.y
        return n * Swift.min(1.0, depth / 2)
    }

    // MARK: Smoothing and timing

    private func finish(_ route: [RoutePoint], rng: inout SeededRandom) -> CameraTrajectory {
        precondition(route.count >= 2, "a trajectory needs a route")
        // Unwrap yaw so smoothing does not average across ±π.
        var yaw = route.map(\.yaw)
        for i in 1..<yaw.count {
            while yaw[i] - yaw[i - 1] > .pi { yaw[i] -= 2 * .pi }
            while yaw[i] - yaw[i - 1] < -.pi { yaw[i] += 2 * .pi }
        }
        // Smooth over ~0.5 m for yaw and ~0.3 m for position: rounded corners, no jerks.
        yaw = gaussianSmooth(yaw, sigma: 0.5 / step)
        let xs = gaussianSmooth(route.map(\.p.x), sigma: 0.3 / step)
        let zs = gaussianSmooth(route.map(\.p.y), sigma: 0.3 / step)
        // Slow pitch/roll/height variations and hand shake: sums of sinusoids, random phases.
        let ph = (0..<10).map { _ in rng.uniform(0...(2 * .pi)) }
        let fr = (0..<4).map { _ in rng.uniform(3...7) }
        var samples: [CameraTrajectory.Sample] = []
        var t = 0.0
        for i in 0..<route.count {
            if i > 0 {
                let ds = ((xs[i] - xs[i - 1]) * (xs[i] - xs[i - 1]) + (zs[i] - zs[i - 1]) * (zs[i] - zs[i - 1])).squareRoot()
                t += max(ds / motion.speed, abs(yaw[i] - yaw[i - 1]) / motion.turnRate, 1e-4)
            }
            let a = motion.pitchAmplitude, sh = motion.shake
            let pitch = motion.pitchOffset + a * sin(2 * .pi * t / 7.3 + ph[0]) + 0.4 * a * sin(2 * .pi * t / 2.9 + ph[1])
                + sh * sin(2 * .pi * fr[0] * t + ph[2])
            let roll = 0.03 * sin(2 * .pi * t / 5.1 + ph[3]) + sh * sin(2 * .pi * fr[1] * t + ph[4])
            let yawShake = sh * sin(2 * .pi * fr[2] * t + ph[5]) + 0.5 * sh * sin(2 * .pi * fr[3] * t + ph[6])
            let height = eyeHeight + 0.06 * sin(2 * .pi * t / 9.7 + ph[7]) + 0.015 * sin(2 * .pi * 1.8 * t + ph[8])
            samples.append(.init(time: t, position: SIMD3(xs[i], height, zs[i]), yaw: yaw[i] + yawShake,
                                 pitch: pitch, roll: roll))
        }
        return CameraTrajectory(samples: samples)
    }

    private func gaussianSmooth(_ v: [Double], sigma: Double) -> [Double] {
        let r = Int(3 * sigma)
        let w = (-r...r).map { exp(-Double($0 * $0) / (2 * sigma * sigma)) }
        return v.indices.map { i in
            var sum = 0.0, norm = 0.0
            for k in -r...r {
                let j = min(max(i + k, 0), v.count - 1)   // clamp: the ends stay put
                sum += v[j] * w[k + r]; norm += w[k + r]
            }
            return sum / norm
        }
    }
}
