import Foundation
import Geometry
import Vision

/// Renders a recorded session of a synthetic textured indoor scene: `session.json`
/// (intrinsics, ground-truth poses, drifting odometry), `frames/*.jpg|png` and `scene.json`.
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

    public var layout: SceneLayout { SceneLayout.preset(options.layout, seed: options.sceneSeed)! }

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

    /// The route's camera trajectory.
    public func trajectory() -> CameraTrajectory {
        var planner = TrajectoryPlanner(layout: layout)
        let rooms = layout.spaces.filter { $0.kind == .room }.map(\.id)
        var legs: [TrajectoryPlanner.Leg] = []
        switch options.route {
        case .mapping:
            for (i, room) in rooms.enumerated() {
                if i > 0 { legs.append(.walk(to: room)) }
                legs.append(.loop(space: room, inset: 1.3, clockwise: false, phase: 0))
                legs.append(.loop(space: room, inset: 2.2, clockwise: true, phase: 1.3))
            }
            // Walk back to the first room, so corridors and doorways are seen both ways.
            for room in rooms.reversed().dropFirst() { legs.append(.walk(to: room)) }
        case .walk:
            for (i, room) in rooms.reversed().enumerated() {
                if i > 0 { legs.append(.walk(to: room)) }
                legs.append(.loop(space: room, inset: 1.75, clockwise: true, phase: 2.0))
            }
        case .hard:
            planner.motion.speed = 1.0
            planner.motion.turnRate = 1.3
            planner.motion.sway = 0.45
            planner.motion.shake = 0.005 * options.effectsStrength
            for (i, room) in rooms.prefix(2).enumerated() {
                if i > 0 { legs.append(.walk(to: room)) }
                legs.append(.loop(space: room, inset: i == 0 ? 1.55 : 2.0, clockwise: i == 0, phase: 0.7 + Double(i)))
            }
        case .tour:
            legs.append(.loop(space: rooms[0], inset: 1.5, clockwise: false, phase: 0.4))
        }
        return planner.trajectory(legs, seed: options.sessionSeed)
    }

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
        let textures = try await makeTextures(scene: scene, decals: decals)
        let trajectory = trajectory()
        let times = trajectory.frameTimes(count: options.frameCount)
        let cam = camera
        let s = options.effectsStrength
        let hard = options.route == .hard
        // Light direction and per-room brightness; the hard route switches both half-way.
        let lightA = normalize(SIMD3(0.4, 0.8, 0.3)), lightB = normalize(SIMD3(-0.6, 0.5, -0.45))
        func shading(lightB useB: Bool) -> [RenderPlane] {
            scene.planes.map { p in
                let l = useB ? lightB : lightA
                let shade = 0.7 + 0.35 * max(0, dot(p.normal, l)) - (useB ? 0.08 : 0)
                return RenderPlane(corners: p.corners, texture: textures[p.texture]!, shade: shade)
            }
        }
        let planesA = shading(lightB: false), planesB = shading(lightB: true)
        let exposure = (hard ? 0.014 : 0.008) * s
        let duration = trajectory.duration
        let seed = options.sessionSeed

        let jobs = times.enumerated().map { ($0.offset, $0.element) }
        let results = try await parallelMap(jobs) { (index, t) -> Data in
            let poses = Self.exposurePoses(trajectory, at: t, exposure: exposure, camera: cam)
            var gain = 1 + 0.06 * s * sin(2 * .pi * t / 11 + Double(seed % 7))
            var planes = planesA
            if hard {
                // Lights dim and move from 45 % of the route on; auto-exposure partly recovers.
                let f = min(1, max(0, (t / duration - 0.45) / 0.05))
                gain *= 1 - s * (0.45 * f - 0.15 * min(1, max(0, (t / duration - 0.6) / 0.2)))
                if f > 0.5 { planes = planesB }
            }
            let effects = RenderEffects(gain: max(0.05, gain), vignetting: 0.18 * min(1, s),
                                        readNoise: (hard ? 2.5 : 1.2) * s, shotNoise: (hard ? 0.45 : 0.25) * s,
                                        seed: seed &* 1_000_003 &+ UInt64(index), background: RGBColor(90, 90, 90))
            let image = try Renderer.render(camera: cam, poses: poses, planes: planes, effects: effects).image
            switch options.imageFormat {
            case .jpg: return try ImageEncoding.jpeg(image, quality: options.jpegQuality)
            case .png: return try ImageEncoding.png(image)
            }
        }

        let gt = times.map { (time: $0, pose: trajectory.pose(at: $0)) }
        let odometry = OdometryDrift().odometry(for: gt, seed: seed)
        var frames: [RecordedSession.Frame] = []
        var bytes = 0
        for (i, data) in results.enumerated() {
            let id = String(format: "%06d", i)
            let image = "frames/\(id).\(options.imageFormat.rawValue)"
            try data.write(to: directory.appendingPathComponent(image))
            bytes += data.count
            frames.append(.init(id: id, timestamp: (times[i] * 1e6).rounded() / 1e6, image: image,
                                pose: gt[i].pose, odometry: odometry[i]))
        }
        let session = RecordedSession(name: options.name, camera: cam, frames: frames)
        try session.write(toDirectory: directory)
        try scene.write(toDirectory: directory)
        return Summary(frames: frames.count, pathLength: trajectory.length, duration: trajectory.duration,
                       bytes: bytes, seconds: Date().timeIntervalSince(start))
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

    /// One texture per distinct texture id, drawn (or loaded) in parallel.
    private func makeTextures(scene: SceneDescription, decals: [String: [ProceduralTextures.Decal]]) async throws
        -> [String: RenderTexture] {
        let files = try textureFiles()
        let seed = options.sceneSeed
        let scale = options.textureScale
        var planeOfTexture: [String: SceneDescription.Plane] = [:]
        for p in scene.planes where planeOfTexture[p.texture] == nil { planeOfTexture[p.texture] = p }
        let firstPlane = planeOfTexture
        let ids = firstPlane.keys.sorted()
        let made = try await parallelMap(ids) { id -> RenderTexture in
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

/// Maps `items` on all cores, results in input order (so output never depends on scheduling).
private func parallelMap<T: Sendable, R: Sendable>(_ items: [T], _ body: @escaping @Sendable (T) throws -> R) async throws -> [R] {
    let workers = max(1, min(items.count, ProcessInfo.processInfo.activeProcessorCount))
    return try await withThrowingTaskGroup(of: [(Int, R)].self) { group in
        for w in 0..<workers {
            group.addTask {
                var out: [(Int, R)] = []
                var i = w
                while i < items.count {
                    out.append((i, try body(items[i])))
                    i += workers
                }
                return out
            }
        }
        var slots = [R?](repeating: nil, count: items.count)
        for try await part in group { for (i, r) in part { slots[i] = r } }
        return slots.map { $0! }
    }
}
