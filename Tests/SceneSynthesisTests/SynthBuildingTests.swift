import Foundation
import Geometry
import Testing
import Vision
@testable import Formats
@testable import SceneSynthesis
import TestSupport
@testable import VPSModel

/// The `building` layout: a sound floor plan, textures that repeat as a building's do,
/// routes inside it, culling that changes no pixel, byte-identical output, and a small
/// building's map that localizes its walk.
@Suite struct SynthBuildingTests {
    static func options(_ size: BuildingSize, route: SyntheticSessionOptions.Route, frames: Int = 3) -> SyntheticSessionOptions {
        var o = SyntheticSessionOptions(name: "venue")
        o.layout = "building"; o.building = size; o.sceneSeed = 7; o.sessionSeed = 11; o.route = route
        o.frameCount = frames; o.width = 96; o.height = 72
        o.textureScale = 0.25
        return o
    }

    @Test func floorPlanIsSound() throws {
        let size = BuildingSize(floors: 2, wings: 3, rooms: 5)
        let layout = BuildingLayout.layout(size)
        #expect(layout.spaces.count == 2 * 3 * (2 + 2 * 5))
        #expect(Set(layout.spaces.map(\.id)).count == layout.spaces.count)
        #expect(BuildingLayout.elevations(of: layout) == [0, 4])
        // No two spaces of a floor overlap (they may touch).
        for (i, a) in layout.spaces.enumerated() {
            for b in layout.spaces[(i + 1)...] where a.elevation == b.elevation {
                let ox = min(a.max.x - b.min.x, b.max.x - a.min.x), oz = min(a.max.y - b.min.y, b.max.y - a.min.y)
                #expect(ox <= 1e-9 || oz <= 1e-9, "\(a.id) overlaps \(b.id)")
            }
        }
        let allOpenings = layout.openings
        func openings(of id: String) -> [SceneLayout.Opening] { allOpenings.filter { $0.between.0 == id || $0.between.1 == id } }
        for room in layout.spaces where room.kind == .room {
            #expect(abs(room.size.x - 6) < 1e-9 && abs(room.size.y - 5) < 1e-9)
            // A room opens only into its doorway, 1.2 m wide; the doorway into the corridor.
            let doors = openings(of: room.id)
            #expect(doors.count == 1 && Set([doors[0].between.0, doors[0].between.1]) == [room.id, room.id + "-door"])
            let d = doors[0].to - doors[0].from
            #expect(abs((d.x * d.x + d.y * d.y).squareRoot() - 1.2) < 1e-9)
            let corridor = room.id.split(separator: "-").prefix(2).joined(separator: "-") + "-corridor"
            #expect(openings(of: room.id + "-door").contains { [$0.between.0, $0.between.1].contains(corridor) })
        }
        // Every floor is one connected plan, and nothing opens between floors.
        let byId = Dictionary(uniqueKeysWithValues: layout.spaces.map { ($0.id, $0) })
        for o in allOpenings { #expect(byId[o.between.0]!.elevation == byId[o.between.1]!.elevation) }
        for floor in 0..<2 {
            var reached: Set<String> = ["f\(floor)-hall-0"], frontier = ["f\(floor)-hall-0"]
            while let here = frontier.popLast() {
                for o in openings(of: here) {
                    let next = o.between.0 == here ? o.between.1 : o.between.0
                    if reached.insert(next).inserted { frontier.append(next) }
                }
            }
            #expect(reached.count == 3 * (2 + 2 * 5), "floor \(floor) is not connected")
        }
        // A wing's plan does not depend on the size of the building around it.
        let small = BuildingLayout.layout(BuildingSize(floors: 1, wings: 1, rooms: 5))
        #expect(small.spaces == layout.spaces.filter { $0.id.hasPrefix("f0-w0-") || $0.id == "f0-hall-0" })
        // Rooms 0 and 1 face each other nearest the hall.
        let r0 = try #require(byId["f0-w0-r0"]), r1 = try #require(byId["f0-w0-r1"])
        #expect(r0.max.x < r1.min.x && r0.min.y == r1.min.y)
    }

    @Test func texturesRepeatAsInABuilding() throws {
        let layout = BuildingLayout.layout(BuildingSize(floors: 1, wings: 2, rooms: 4))
        let planes = ScenePlanner.plan(layout: layout, seed: 7).scene.planes
        let rooms = layout.spaces.filter { $0.kind == .room }.map(\.id)
        // Every room has the same floor and ceiling.
        let floors = Set(planes.filter { $0.kind == .floor && rooms.contains($0.sectionId) }.map(\.texture))
        let ceilings = Set(planes.filter { $0.kind == .ceiling && rooms.contains($0.sectionId) }.map(\.texture))
        #expect(floors.count == 1 && ceilings.count == 1)
        // The same posters and doors hang in several spaces; each wall keeps its own texture.
        let shared = planes.filter { $0.texture.hasPrefix(SceneLayout.sharedTexturePrefix) }
        var spacesOfTexture: [String: Set<String>] = [:]
        for p in shared { spacesOfTexture[p.texture, default: []].insert(p.sectionId) }
        #expect(spacesOfTexture["shared/door"].map { $0.count >= 3 } == true)
        #expect(spacesOfTexture.filter { $0.key.contains("poster") && $0.value.count >= 2 }.count >= 4)
        let walls = planes.filter { $0.kind == .wall && !$0.texture.hasPrefix(SceneLayout.sharedTexturePrefix) }
        #expect(Set(walls.map(\.texture)).count == walls.count)
        // Fixtures hang 1 cm in front of a wall of their own space, inside it.
        let fixtures = planes.filter { $0.id.contains("/fixture-") }
        #expect(fixtures.count > 10)
        for f in fixtures {
            let space = try #require(layout.space(f.sectionId))
            let wall = planes.first { w in
                w.sectionId == f.sectionId && w.kind == .wall && !w.id.contains("/fixture-")
                    && abs(dot(w.normal, f.corners[0] - w.corners[0]) - 0.01) < 1e-9 && dot(w.normal, f.normal) > 0.999
            }
            #expect(wall != nil, "\(f.id) is on no wall")
            for c in f.corners {
                #expect(space.contains(SIMD2(c.x, c.z), y: c.y), "\(f.id) leaves \(space.id)")
            }
        }
    }

    /// Rendering only the planes `PlaneVisibility` keeps shows, at every pixel, the plane a
    /// render of every plane shows.
    @Test func cullingChangesNoPixel() throws {
        for route in [SyntheticSessionOptions.Route.mapping, .walk] {
            let generator = try SyntheticSessionGenerator(options: Self.options(BuildingSize(floors: 2, wings: 2, rooms: 2), route: route))
            let scene = generator.plannedScene().scene
            let visibility = PlaneVisibility(layout: generator.layout, planes: scene.planes)
            var cam = generator.camera
            cam = CameraIntrinsics(width: 64, height: 48, fx: cam.fx * 64 / 96, fy: cam.fy * 64 / 96, cx: 31.5, cy: 23.5)
            let texture = try RenderTexture(width: 8, height: 8, ops: [.fill(RGBColor(128, 128, 128))])
            let all = scene.planes.map { RenderPlane(corners: $0.corners, texture: texture) }
            var culledSome = false
            for trajectory in generator.trajectories() {
                for t in trajectory.frameTimes(count: 24) {
                    let pose = trajectory.pose(at: t)
                    let kept = visibility.planes(seenFrom: pose.center)
                    culledSome = culledSome || kept.count < scene.planes.count / 2
                    let full = try #require(try Renderer.render(camera: cam, poses: [pose], planes: all, planeIds: true).planeIds)
                    let part = try #require(try Renderer.render(camera: cam, poses: [pose], planes: kept.map { all[$0] },
                                                                planeIds: true).planeIds)
                    let mapped = part.map { $0 < 0 ? -1 : Int32(kept[Int($0)]) }
                    #expect(mapped == full, "\(route) at t=\(t): culling changed what is seen")
                }
            }
            #expect(culledSome)
        }
    }

    @Test func sameArgumentsGiveIdenticalBytes() async throws {
        let a = try ScratchDirectory("venue-a"), b = try ScratchDirectory("venue-b")
        let o = Self.options(BuildingSize(floors: 2, wings: 1, rooms: 1), route: .mapping, frames: 6)
        try await SyntheticSessionGenerator(options: o).generate(to: a.url)
        try await SyntheticSessionGenerator(options: o).generate(to: b.url)
        let fa = try SynthGeneratorTests.files(a.url)
        #expect(fa.count == 8)   // session.json, scene.json, 6 frames
        #expect(fa == (try SynthGeneratorTests.files(b.url)))
        #expect(SessionValidator.validate(directory: a.url).isEmpty)
        // The mapping route covers both floors, in order, with the pause between them.
        let session = try RecordedSession.load(from: a.url)
        let heights = session.frames.map { $0.pose!.center.y }
        #expect(heights.first! < 2 && heights.last! > 5)
        #expect(zip(heights, heights.dropFirst()).filter { $1 - $0 > 3 }.count == 1)
        let gaps = zip(session.frames, session.frames.dropFirst()).map { $1.timestamp - $0.timestamp }
        #expect(gaps.max()! > SyntheticSessionGenerator.floorChangePause)
    }

    @Test func queryRoutesStayInTheFirstWing() throws {
        let size = BuildingSize(floors: 2, wings: 2, rooms: 6)
        for route in [SyntheticSessionOptions.Route.walk, .hard, .tour] {
            let generator = try SyntheticSessionGenerator(options: Self.options(size, route: route))
            let pieces = generator.trajectories()
            #expect(pieces.count == 1)
            let spaces = generator.layout.spaces
            var visited: Set<String> = []
            for s in pieces[0].samples {
                let p = s.position
                let here = try #require(spaces.first { $0.contains(SIMD2(p.x, p.z), y: p.y) }, "\(route) leaves the building at \(p)")
                visited.insert(here.id)
            }
            let rooms = visited.filter { generator.layout.space($0)?.kind == .room }
            #expect(rooms.allSatisfy { $0.hasPrefix("f0-w0-r") })
            let expected = route == .walk ? 4 : route == .hard ? 2 : 1
            #expect(rooms.count == expected, "\(route) visits \(rooms.sorted())")
        }
    }
}
