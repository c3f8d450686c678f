import Geodesy
import Foundation
import Geometry
import Vision
import VPSModel
import Support

/// Renders a recorded session of a synthetic textured scene (rooms, or a street):
/// `session.json` (intrinsics, ground-truth poses, drifting odometry), `frames/*.jpg|png`
/// and `scene.json`.
///
/// Deterministic: the same options give byte-identical files, whatever the number of
/// cores (textures and frames render in parallel, each from its own seeds).
public struct SyntheticSessionGenerator: Sendable {
    public let options: SyntheticSessionOptions

    /// What was generated, for reporting.
    public struct Summary: Sendable {
        public var frames: Int
        public var pathLength: Double
        public var duration: Double
        public var bytes: Int
        public var seconds: Double
    }

    public init(options: SyntheticSessionOptions) throws {
        if let p = options.problem { throw SynthesisError(p) }
        self.options = options
    }

    public var layout: SceneLayout { SceneLayout.preset(options.layout, seed: options.sceneSeed, building: options.building)! }

    /// The camera of the generated session.
    public var camera: CameraIntrinsics {
        let f = Double(options.width) / 2 / tan(options.horizontalFieldOfViewDegrees * .pi / 360)
        let fr = (f * 1000).rounded() / 1000
        return CameraIntrinsics(width: options.width, height: options.height, fx: fr, fy: fr,
                                cx: Double(options.width) / 2 - 0.5, cy: Double(options.height) / 2 - 0.5)
    }

    /// The scene description and textures' decals (independent of the route).
    public func plannedScene() -> (scene: SceneDescription, decals: [String: [ProceduralTextures.Decal]]) {
        var planned = ScenePlanner.plan(layout: layout, seed: options.sceneSeed, ceilings: options.ceilings,
                                        textureScale: options.textureScale)
        if let files = try? textureFiles(), !files.isEmpty {
            for i in planned.scene.planes.indices { planned.scene.planes[i].texture = files[i % files.count].lastPathComponent }
            planned.decals = [:]
        }
        return planned
    }

    /// The route's camera trajectory, when it is one piece: every route but the mapping
    /// route of a building of several floors (see `trajectories()`).
    public func trajectory() -> CameraTrajectory { trajectories()[0] }

    /// The route's camera trajectory, one piece per floor in the order visited. Between
    /// pieces the capture pauses (`floorChangePause`) while the camera changes floors.
    public func trajectories() -> [CameraTrajectory] {
        if options.layout == "building" { return buildingTrajectories() }
        if let street = layout.street { return [streetTrajectory(street)] }
        var planner = TrajectoryPlanner(layout: layout)
        let rooms = layout.spaces.filter { $0.kind == .room }.map(\.id)
        var legs: [TrajectoryPlanner.Leg] = []
        switch options.route {
        case .mapping:
            for (i, room) in rooms.enumerated() {
                if i > 0 { legs.append(.walk(to: room)) }
                legs += Self.mappingLoops(room)
            }
            // Walk back to the first room, so corridors and doorways are seen both ways.
            for room in rooms.reversed().dropFirst() { legs.append(.walk(to: room)) }
        case .walk:
            legs = Self.walkLegs(rooms)
        case .hard:
            Self.hardMotion(&planner.motion, effects: options.effectsStrength)
            legs = Self.hardLegs(rooms)
        case .tour:
            legs.append(.loop(space: rooms[0], inset: 1.5, clockwise: false, phase: 0.4))
        }
        return [planner.trajectory(legs, seed: options.sessionSeed)]
    }

    /// Frames at the density of the shipped gallery mapping session (180 frames in 191 s of
    /// walking, one per 1.06 s): what `dataset synth` renders of a building when not told.
    public func framesAtMappingDensity() -> Int {
        max(2, Int((trajectories().reduce(0) { $0 + $1.duration } / 1.06).rounded()))
    }

    /// Seconds the capture pauses between floors (the ride between them is not recorded).
    public static let floorChangePause = 60.0

    /// Two loops looking at every wall: near and far, opposite directions.
    private static func mappingLoops(_ space: String) -> [TrajectoryPlanner.Leg] {
        [.loop(space: space, inset: 1.3, clockwise: false, phase: 0),
         .loop(space: space, inset: 2.2, clockwise: true, phase: 1.3)]
    }

    /// Rooms in reverse order, one loop each between the mapping distances, the other way round.
    private static func walkLegs(_ rooms: [String]) -> [TrajectoryPlanner.Leg] {
        var legs: [TrajectoryPlanner.Leg] = []
        for (i, room) in rooms.reversed().enumerated() {
            if i > 0 { legs.append(.walk(to: room)) }
            legs.append(.loop(space: room, inset: 1.75, clockwise: true, phase: 2.0))
        }
        return legs
    }

    private static func hardMotion(_ motion: inout TrajectoryPlanner.Motion, effects: Double) {
        motion.speed = 1.0
        motion.turnRate = 1.3
        motion.sway = 0.45
        motion.shake = 0.005 * effects
    }

    /// The first two rooms, fast.
    private static func hardLegs(_ rooms: [String]) -> [TrajectoryPlanner.Leg] {
        var legs: [TrajectoryPlanner.Leg] = []
        for (i, room) in rooms.prefix(2).enumerated() {
            if i > 0 { legs.append(.walk(to: room)) }
            legs.append(.loop(space: room, inset: i == 0 ? 1.55 : 2.0, clockwise: i == 0, phase: 0.7 + Double(i)))
        }
        return legs
    }

    /// A building's routes. Mapping, per floor: along the hall and into each wing in turn,
    /// a loop along the hall segment and the corridor (looking at their walls), the two
    /// mapping loops in every room, back to the hall. The query routes stay in the first
    /// wing of the ground floor: `walk` through its first four rooms (the two pairs nearest
    /// the hall; fewer when it has fewer), `hard` through its first two, `tour` around its
    /// first room.
    private func buildingTrajectories() -> [CameraTrajectory] {
        let layout = self.layout
        let size = options.building
        func planner(floor: Int) -> TrajectoryPlanner {
            var p = TrajectoryPlanner(layout: layout)
            p.eyeHeight += Double(floor) * BuildingLayout.storey
            return p
        }
        let firstWing = BuildingLayout.rooms(of: layout, floor: 0, wing: 0)
        switch options.route {
        case .mapping:
            return (0..<size.floors).map { f in
                var legs: [TrajectoryPlanner.Leg] = []
                for w in 0..<size.wings {
                    let hall = "f\(f)-hall-\(w)", corridor = "f\(f)-w\(w)-corridor"
                    if w > 0 { legs.append(.walk(to: hall)) }
                    legs.append(.loop(space: hall, inset: 1.2, clockwise: w % 2 == 1, phase: 0.5))
                    legs.append(.walk(to: corridor))
                    legs.append(.loop(space: corridor, inset: 1.0, clockwise: false, phase: 0.9))
                    for room in BuildingLayout.rooms(of: layout, floor: f, wing: w) {
                        legs.append(.walk(to: room))
                        legs += Self.mappingLoops(room)
                    }
                    legs.append(.walk(to: hall))
                }
                // Sessions of different floors differ in their trajectory phases too.
                return planner(floor: f).trajectory(legs, seed: options.sessionSeed &+ UInt64(f))
            }
        case .walk:
            return [planner(floor: 0).trajectory(Self.walkLegs(Array(firstWing.prefix(4))), seed: options.sessionSeed)]
        case .hard:
            var p = planner(floor: 0)
            Self.hardMotion(&p.motion, effects: options.effectsStrength)
            return [p.trajectory(Self.hardLegs(firstWing), seed: options.sessionSeed)]
        case .tour:
            return [planner(floor: 0).trajectory([.loop(space: firstWing[0], inset: 1.5, clockwise: false, phase: 0.4)],
                                                 seed: options.sessionSeed)]
        }
    }

    /// Where the street's routes walk: lines along the street, this far south of its centre
    /// line (z), 2 m apart.
    public static let streetLines = (mapping: 1.5, walk: -0.5)

    /// The street's routes: forward walks down it, the phone held at about 1.5 m looking
    /// along the street. Mapping: the whole stretch of `StreetLayout.route` on its line,
    /// level, with a slow mild sway. Walk: most of the same stretch on the other line, with
    /// another sway, the phone tilted up a little, and three glances at the facades
    /// (22–32° aside, a few metres each), at another time of day (lit from elsewhere).
    /// Hard: the walk, faster, with hand shake (and the generator's blur, noise and light
    /// change). Tour: the first 20 m of the mapping line.
    private func streetTrajectory(_ street: StreetLayout) -> CameraTrajectory {
        var planner = TrajectoryPlanner(layout: layout)
        let r = street.route, lines = Self.streetLines
        let leg: TrajectoryPlanner.Leg
        switch options.route {
        case .mapping, .tour:
            planner.motion.speed = 1.1
            planner.motion.sway = 0.06
            planner.motion.pitchOffset = 0
            planner.motion.pitchAmplitude = 0.04
            let end = options.route == .tour ? r.lowerBound + 20 : r.upperBound
            leg = .stroll(from: SIMD2(r.lowerBound, lines.mapping), to: SIMD2(end, lines.mapping), swayPeriod: 9, phase: 0,
                          glances: [])
        case .walk, .hard:
            planner.motion.speed = options.route == .hard ? 1.6 : 1.3
            planner.motion.sway = 0.08
            planner.motion.pitchOffset = 0.05
            planner.motion.pitchAmplitude = 0.07
            if options.route == .hard { planner.motion.shake = 0.005 * options.effectsStrength }
            planner.eyeHeight = 1.42
            leg = .stroll(from: SIMD2(r.lowerBound + 2.5, lines.walk), to: SIMD2(r.upperBound - 3.5, lines.walk),
                          swayPeriod: 7, phase: 2.1,
                          glances: [.init(at: 20, yaw: 0.52, hold: 4), .init(at: 46, yaw: -0.56, hold: 4),
                                    .init(at: 70, yaw: 0.4, hold: 4)])
        }
        return planner.trajectory([leg], seed: options.sessionSeed)
    }

    /// Colour where no plane is seen: the ceilings' shadow indoors, a hazy sky over a street.
    var background: RGBColor { layout.street == nil ? RGBColor(90, 90, 90) : RGBColor(178, 192, 206) }

    /// Writes the session into `directory` (created if needed; existing frames replaced).
    @discardableResult
    public func generate(to directory: URL) async throws -> Summary {
        let start = Date()
        let fm = FileManager.default
        let framesDir = directory.appendingPathComponent("frames", isDirectory: true)
        try fm.createDirectory(at: framesDir, withIntermediateDirectories: true)
        for old in (try? fm.contentsOfDirectory(at: framesDir, includingPropertiesForKeys: nil)) ?? [] {
            try fm.removeItem(at: old)
        }

        let (scene, decals) = plannedScene()
        let pieces = trajectories()
        let counts = Self.frameCounts(options.frameCount, durations: pieces.map(\.duration))
        let cam = camera
        let s = options.effectsStrength
        let hard = options.route == .hard
        // Outdoors, the walk is recorded at another time of day: the sun from elsewhere.
        let otherDay = layout.street != nil && options.route == .walk
        let visibility = PlaneVisibility(layout: layout, planes: scene.planes)
        // Light direction and per-room brightness; the hard route switches both half-way.
        let lightA = normalize(SIMD3(0.4, 0.8, 0.3)), lightB = normalize(SIMD3(-0.6, 0.5, -0.45))
        let shadeA = scene.planes.map { 0.7 + 0.35 * max(0, dot($0.normal, lightA)) }
        let shadeB = scene.planes.map { 0.7 + 0.35 * max(0, dot($0.normal, lightB)) - 0.08 }
        let exposure = (hard ? 0.014 : 0.008) * s * options.motionBlur
        let seed = options.sessionSeed
        let background = self.background

        var textures: [String: RenderTexture] = [:]
        var frames: [RecordedSession.Frame] = []
        var gt: [(time: Double, pose: Pose)] = []
        var bytes = 0
        var offset = 0.0
        for (trajectory, count) in zip(pieces, counts) {
            // Textures of the floor this piece is on: one floor's at a time in memory.
            let onFloor = visibility.planes(onFloorOf: trajectory.samples[0].position)
            let needed = Set(onFloor.map { scene.planes[$0].texture })
            textures = textures.filter { needed.contains($0.key) }
            textures.merge(try await makeTextures(scene: scene, decals: decals, ids: needed.subtracting(textures.keys)),
                           uniquingKeysWith: { a, _ in a })
            let renderPlanes = (0..<scene.planes.count).map { i -> (a: RenderPlane, b: RenderPlane)? in
                let p = scene.planes[i]
                guard let texture = textures[p.texture] else { return nil }
                return (RenderPlane(corners: p.corners, texture: texture, shade: shadeA[i]),
                        RenderPlane(corners: p.corners, texture: texture, shade: shadeB[i]))
            }
            let times = trajectory.frameTimes(count: count)
            let duration = trajectory.duration
            let first = frames.count, start = offset
            let jobs = times.enumerated().map { (first + $0.offset, $0.element) }
            let results = try WorkerThreads.map(jobs) { (index, t) -> Data in
                let poses = Self.exposurePoses(trajectory, at: t, exposure: exposure, camera: cam)
                var gain = 1 + 0.06 * s * sin(2 * .pi * (t + start) / 11 + Double(seed % 7))
                var useB = otherDay
                if hard {
                    // Lights dim and move from 45 % of the route on; auto-exposure partly recovers.
                    let f = min(1, max(0, (t / duration - 0.45) / 0.05))
                    gain *= 1 - s * (0.45 * f - 0.15 * min(1, max(0, (t / duration - 0.6) / 0.2)))
                    useB = f > 0.5
                }
                // Only what can be seen from where the camera is: a building has thousands of planes.
                let planes = visibility.planes(seenFrom: trajectory.pose(at: t).center).compactMap { i in
                    renderPlanes[i].map { useB ? $0.b : $0.a }
                }
                let effects = RenderEffects(gain: max(0.05, gain), vignetting: 0.18 * min(1, s),
                                            readNoise: (hard ? 2.5 : 1.2) * s, shotNoise: (hard ? 0.45 : 0.25) * s,
                                            seed: seed &* 1_000_003 &+ UInt64(index), background: background)
                let image = try Renderer.render(camera: cam, poses: poses, planes: planes, effects: effects).image
                switch options.imageFormat {
                case .jpg: return try ImageEncoding.jpeg(image, quality: options.jpegQuality)
                case .png: return try ImageEncoding.png(image)
                }
            }
            for (k, data) in results.enumerated() {
                let id = String(format: "%06d", first + k)
                let image = "frames/\(id).\(options.imageFormat.rawValue)"
                try data.write(to: directory.appendingPathComponent(image))
                bytes += data.count
                let time = times[k] + offset
                gt.append((time, trajectory.pose(at: times[k])))
                frames.append(.init(id: id, timestamp: (time * 1e6).rounded() / 1e6, image: image, pose: gt.last!.pose))
            }
            offset += duration + Self.floorChangePause
        }
        let odometry = OdometryDrift().odometry(for: gt, seed: seed)
        for i in frames.indices { frames[i].odometry = odometry[i] }
        if let georeference = options.georeference {
            let readings = Self.gpsReadings(of: frames.map { $0.pose!.center }, georeference, noise: options.gpsNoise,
                                            seed: seed)
            for i in frames.indices { frames[i].gps = readings[i] }
        }
        var session = RecordedSession(name: options.name, camera: cam, frames: frames)
        session.georeference = options.georeference
        try session.write(toDirectory: directory)
        try scene.write(toDirectory: directory)
        return Summary(frames: frames.count, pathLength: pieces.reduce(0) { $0 + $1.length },
                       duration: pieces.reduce(0) { $0 + $1.duration }, bytes: bytes,
                       seconds: Date().timeIntervalSince(start))
    }

    /// Frames per trajectory piece, in proportion to its duration (largest remainders
    /// first), at least one each while there are enough.
    static func frameCounts(_ total: Int, durations: [Double]) -> [Int] {
        guard durations.count > 1 else { return [total] }
        let sum = durations.reduce(0, +)
        let shares = durations.map { Double(total) * $0 / sum }
        var counts = shares.map { Int($0.rounded(.down)) }
        let byRemainder = shares.indices.sorted { (shares[$0] - Double(counts[$0]), $1) > (shares[$1] - Double(counts[$1]), $0) }
        for i in byRemainder.prefix(total - counts.reduce(0, +)) { counts[i] += 1 }
        if total >= durations.count {
            for i in counts.indices where counts[i] == 0 {
                let donor = counts.indices.max { counts[$0] < counts[$1] }!
                counts[donor] -= 1; counts[i] += 1
            }
        }
        return counts
    }

    // MARK: Pieces

    /// Poses sampled over the exposure around `t`: enough that the image moves under a
    /// pixel between samples (motion blur along the real image motion).
    static func exposurePoses(_ trajectory: CameraTrajectory, at t: Double, exposure: Double,
                              camera: CameraIntrinsics) -> [Pose] {
        guard exposure > 0 else { return [trajectory.pose(at: t)] }
        let a = trajectory.pose(at: t - exposure / 2), b = trajectory.pose(at: t + exposure / 2)
        // Largest image displacement of points 2 m ahead at the image centre and corners.
        var blur = 0.0
        for (u, v) in [(0.5, 0.5), (0, 0), (1, 0), (0, 1), (1, 1)] {
            let px = SIMD2(u * Double(camera.width), v * Double(camera.height))
            let p = a.apply(camera.ray(px) * 2)
            if let q = camera.project(b.inverse.apply(p)) {
                blur = max(blur, ((q.x - px.x) * (q.x - px.x) + (q.y - px.y) * (q.y - px.y)).squareRoot())
            }
        }
        // An odd count, so the middle sample (the sharp reference) is the frame's pose.
        let n = min(63, max(1, Int(blur.rounded(.up)))) | 1
        if n == 1 { return [trajectory.pose(at: t)] }
        return (0..<n).map { trajectory.pose(at: t + exposure * (Double($0) / Double(n - 1) - 0.5)) }
    }

    private func textureFiles() throws -> [URL] {
        guard let folder = options.textureFolder else { return [] }
        let files = try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
            .filter { ["jpg", "jpeg", "png"].contains($0.pathExtension.lowercased()) }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
        if files.isEmpty { throw SynthesisError("no .jpg or .png images in \(folder.path)") }
        return files
    }

    /// One texture per id of `ids`, drawn (or loaded) in parallel.
    private func makeTextures(scene: SceneDescription, decals: [String: [ProceduralTextures.Decal]],
                              ids wanted: Set<String>) async throws -> [String: RenderTexture] {
        let files = try textureFiles()
        let seed = options.sceneSeed
        let scale = options.textureScale
        var planeOfTexture: [String: SceneDescription.Plane] = [:]
        for p in scene.planes where planeOfTexture[p.texture] == nil && wanted.contains(p.texture) { planeOfTexture[p.texture] = p }
        let firstPlane = planeOfTexture
        let ids = firstPlane.keys.sorted()
        let made = try WorkerThreads.map(ids) { id -> RenderTexture in
            let plane = firstPlane[id]!
            let (w, h) = ScenePlanner.textureSize(plane, scale: scale)
            if let file = files.first(where: { $0.lastPathComponent == id }) {
                return try RenderTexture(imageData: try Data(contentsOf: file), width: w, height: h)
            }
            return try RenderTexture(width: w, height: h,
                                     ops: ProceduralTextures.ops(kind: plane.kind, width: w, height: h,
                                                                 pixelsPerMetre: Double(w) / plane.size.x, seed: seed,
                                                                 textureId: id, decals: decals[id] ?? []))
        }
        return Dictionary(uniqueKeysWithValues: zip(ids, made))
    }
}

/// A synthetic session cannot be generated with these options.
public struct SynthesisError: Error, Sendable, CustomStringConvertible {
    public let description: String
    public init(_ message: String) { description = message }

}

extension SyntheticSessionGenerator {
    /// GPS readings of `centres` (map coordinates) placed on the earth by `georeference`,
    /// each off by Gaussian noise whose horizontal radius at probability 0.95 is `noise` metres (σ = noise /
    /// 2.45 per axis; 2σ in height), stating those accuracies. Seeded: the same session
    /// always gets the same readings.
    static func gpsReadings(of centres: [SIMD3<Double>], _ georeference: Georeference, noise: Double,
                            seed: UInt64) -> [GPSReading] {
        var rng = SeededRandom(seed: seed, stream: "gps")
        let frame = georeference.frame
        return centres.map { c in
            let sigma = noise / 2.447_746_830_680_816
            let e = georeference.enu(ofMapPoint: c) + sigma * SIMD3(rng.gaussian(), rng.gaussian(), 2 * rng.gaussian())
            let p = frame.position(ofENU: e)
            // Readings carry centimetres, as phones report them.
            let rounded = GeodeticPosition(latitude: (p.latitude * 1e7).rounded() / 1e7,
                                           longitude: (p.longitude * 1e7).rounded() / 1e7,
                                           height: (p.height * 100).rounded() / 100)
            return GPSReading(position: rounded, accuracy: max(noise, 0.01),
                              altitudeAccuracy: max(1.959_963_984_540_054 * 2 * sigma, 0.01))
        }
    }
}
