import Foundation
import Geometry
import GraffityARCloud
import MapModel
import VPSModel
import Storage
import TestSupport

/// The shipped map and recorded sessions (made by the project's own generator and map
/// builder), and the script the shipped query session is simulated with.
enum ShippedData {
    static let root = PackageDirectory.root
    static let mapId = "gallery"
    static var mapURL: URL { root.appendingPathComponent("Maps/gallery.vpsmap") }
    static var mapsDirectory: URL { root.appendingPathComponent("Maps") }
    static var queryDirectory: URL { root.appendingPathComponent("Datasets/gallery-query-walk") }
    static var mappingDirectory: URL { root.appendingPathComponent("Datasets/gallery-mapping") }
    /// The committed script: `ScriptPlanner` made it; `ShippedSessionTests` checks it still fits.
    static var scriptURL: URL { queryDirectory.appendingPathComponent("script.json") }

    static func querySession() throws -> RecordedSession { try RecordedSession.load(from: queryDirectory) }
    static func scene() throws -> SceneContent { try VPSMap.loadScene(from: mapURL.path) }
    static func planes() throws -> [SceneDescription.Plane] { try SceneDescription.load(from: mappingDirectory).planes }
    static func script() throws -> [ScriptAction] {
        try JSONDecoder().decode([ScriptAction].self, from: Data(contentsOf: scriptURL))
    }
}

/// Plans a script for a recorded session from its ground truth: start navigation to a
/// node the walk later reaches, and tap a collectible and a link at the pixel where each
/// is drawn (the object's front-face centre projected with the ground-truth pose of the
/// frame on screen), in a frame where it is near, facing the camera, unoccluded by the
/// scene's walls and the first object the tap's ray meets.
struct ScriptPlanner {
    struct Plan {
        var script: [ScriptAction]
        var destination: String
        var collectible: SceneObject
        var link: SceneObject
    }

    let session: RecordedSession
    let scene: SceneContent
    let planes: [SceneDescription.Plane]

    /// Frames from this index on count as localized (the first requests have answered).
    let settleFrames = 3

    func plan() throws -> Plan {
        let frames = session.frames.filter { $0.pose != nil }
        guard frames.count > settleFrames + 2 else { throw PlanningError("too few posed frames") }
        let start = frames[settleFrames]
        let destination = try farthestReachedNode(from: start, frames: frames)
        let collectible = try object(.collectible)
        let link = try object(.link)
        let c = try bestTap(on: collectible, frames: Array(frames.dropFirst(settleFrames)))
        let l = try bestTap(on: link, frames: Array(frames.dropFirst(settleFrames)))
        let actions = [ScriptAction(time: ((start.timestamp + 0.01) * 1000).rounded() / 1000, action: .startNavigation(node: destination)),
                       ScriptAction(time: c.time, action: .tap(x: c.pixel.x, y: c.pixel.y)),
                       ScriptAction(time: l.time, action: .tap(x: l.pixel.x, y: l.pixel.y))]
            .sorted { $0.time < $1.time }
        return Plan(script: actions, destination: destination, collectible: collectible, link: link)
    }

    /// The node farthest (on the floor) from where navigation starts among those the walk
    /// later passes within half a metre of.
    private func farthestReachedNode(from start: RecordedSession.Frame, frames: [RecordedSession.Frame]) throws -> String {
        let origin = start.pose!.translation
        let later = frames.filter { $0.timestamp > start.timestamp }
        let reached = scene.navigation.nodes.filter { node in
            later.contains { floorDistance($0.pose!.translation, node.position) < 0.5 }
        }
        guard let best = reached.max(by: { floorDistance(origin, $0.position) < floorDistance(origin, $1.position) }) else {
            throw PlanningError("the walk reaches no navigation node")
        }
        return best.id
    }

    private func object(_ kind: SceneObject.Kind) throws -> SceneObject {
        guard let o = scene.objects.filter({ $0.kind == kind }).min(by: { $0.id < $1.id }) else {
            throw PlanningError("the scene has no \(kind)")
        }
        return o
    }

    /// The frame that shows `object` best (nearest, within 4 m), and the pixel to tap.
    private func bestTap(on object: SceneObject, frames: [RecordedSession.Frame]) throws -> (time: Double, pixel: SIMD2<Double>) {
        let camera = session.camera
        let margin = 60.0
        var best: (depth: Double, time: Double, pixel: SIMD2<Double>)?
        for frame in frames {
            let pose = frame.pose!
            let centre = object.pose.translation
            let inCamera = pose.inverse.apply(centre)
            guard inCamera.z > 0.5, inCamera.z < 4, let pixel = camera.project(inCamera),
                  pixel.x > margin, pixel.y > margin,
                  pixel.x < Double(camera.width) - margin, pixel.y < Double(camera.height) - margin else { continue }
            // Facing the camera: the object's +z (out of its face) points towards it.
            guard dot(object.pose.rotation.rotate(SIMD3(0, 0, 1)), pose.translation - centre) > 0 else { continue }
            guard !isOccluded(centre, from: pose.translation) else { continue }
            let rounded = SIMD2((pixel.x * 10).rounded() / 10, (pixel.y * 10).rounded() / 10)
            let ray = SceneRay(cameraPose: pose, intrinsics: camera, pixel: rounded)
            guard ray.nearestHit(in: scene.objects)?.object.id == object.id else { continue }
            if inCamera.z < best?.depth ?? .infinity { best = (inCamera.z, frame.timestamp, rounded) }
        }
        guard let best else { throw PlanningError("no frame shows '\(object.id)' well enough to tap it") }
        return (best.time, best.pixel)
    }

    /// True when a wall, floor or ceiling lies between `eye` and `point` (beyond 5 cm of it).
    private func isOccluded(_ point: SIMD3<Double>, from eye: SIMD3<Double>) -> Bool {
        let way = point - eye
        let reach = length(way)
        let d = way / reach
        for plane in planes {
            let n = plane.normal
            let facing = dot(n, d)
            guard abs(facing) > 1e-9 else { continue }
            let t = dot(plane.corners[0] - eye, n) / facing
            guard t > 1e-3, t < reach - 0.05 else { continue }
            let p = eye + d * t
            let u = plane.corners[1] - plane.corners[0], v = plane.corners[3] - plane.corners[0]
            let a = dot(p - plane.corners[0], u) / dot(u, u), b = dot(p - plane.corners[0], v) / dot(v, v)
            if a >= 0, a <= 1, b >= 0, b <= 1 { return true }
        }
        return false
    }

    private func floorDistance(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> Double {
        length(SIMD3(a.x - b.x, 0, a.z - b.z))
    }

    struct PlanningError: Error, CustomStringConvertible {
        let description: String
        init(_ d: String) { description = d }
    }
}

extension ScriptAction {
    /// The JSON text of a script, one action a line (the form of the committed script.json).
    static func jsonText(_ script: [ScriptAction]) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let lines = try script.map { String(decoding: try encoder.encode($0), as: UTF8.self) }
        return "[\n  " + lines.joined(separator: ",\n  ") + "\n]\n"
    }
}
