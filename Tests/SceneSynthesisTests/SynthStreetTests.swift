import Foundation
import Geometry
import Testing
import Vision
import Formats
@testable import SceneSynthesis
import TestSupport
import VPSModel

/// The `street` layout: a street of the size of a real one, facades whose windows repeat
/// without being copies, a skyline far beyond the routes' end and in view all along them,
/// forward walks at phone height (the query beside the mapping walk, not on it), options
/// that refuse nonsense, and the shipped street sessions.
@Suite struct SynthStreetTests {
    static func street(_ seed: UInt64) throws -> StreetLayout {
        try #require(SceneLayout.preset("street", seed: seed)?.street)
    }

    static func options(_ route: SyntheticSessionOptions.Route, frames: Int) -> SyntheticSessionOptions {
        var o = SyntheticSessionOptions(name: "street-\(route)")
        o.layout = "street"; o.sceneSeed = 5; o.sessionSeed = route == .mapping ? 51 : 52; o.route = route
        o.frameCount = frames
        return o
    }

    /// Camera poses of the frames of `route` (trajectory only: nothing is rendered).
    static func poses(_ route: SyntheticSessionOptions.Route, frames: Int) throws -> [Pose] {
        let trajectory = try SyntheticSessionGenerator(options: options(route, frames: frames)).trajectory()
        return trajectory.frameTimes(count: frames).map { trajectory.pose(at: $0) }
    }

    /// Heading of the optical axis in the floor plane, radians from +x (> 0 toward +z).
    static func yaw(_ pose: Pose) -> Double {
        let d = pose.rotation.rotate(SIMD3(0, 0, 1))
        return atan2(d.z, d.x)
    }

    @Test(arguments: [UInt64(1), 5, 9]) func layoutIsAStreetBetweenTwoRowsOfBuildings(seed: UInt64) throws {
        let street = try Self.street(seed)
        #expect(2 * street.halfWidth >= 12 && 2 * street.halfWidth <= 16)
        #expect(street.end - street.start >= 100)
        for side in [StreetLayout.Side.north, .south] {
            // Each row runs the street's length without gaps or overlaps.
            let row = street.buildings.filter { $0.side == side }.sorted { $0.from < $1.from }
            #expect(row.count >= 6)
            #expect(row.first?.from == street.start && row.last?.to == street.end)
            for (a, b) in zip(row, row.dropFirst()) { #expect(abs(a.to - b.from) < 1e-9, "\(a.id) and \(b.id)") }
            for b in row {
                #expect(b.height >= 10 && b.height <= 20, "\(b.id) is \(b.height) m high")
                #expect(b.to - b.from >= 6, "\(b.id) is a sliver")
            }
            // Terraces: some buildings share a design with their neighbour.
            #expect(zip(row, row.dropFirst()).contains { $0.design == $1.design })
        }
        let planes = street.planes()
        #expect(Set(planes.map(\.id)).count == planes.count)
        for b in street.buildings {
            let facade = try #require(planes.first { $0.id == "street/\(b.id)/facade" })
            // Facades face into the street from the building line (or behind it).
            let inward = SIMD3<Double>(0, 0, b.side == .north ? 1 : -1)
            #expect(dot(facade.normal, inward) > 0.999)
            #expect(abs(facade.corners[0].z) >= street.halfWidth - 1e-9)
            #expect(StreetTextures.Surface(facade.texture) == .facade)
            #expect(facade.texture.hasSuffix("/\(b.design)"))
        }
        // The skyline stands 50–300 m beyond the routes' end, facing down the street.
        #expect(street.far.count >= 5)
        for f in street.far {
            let beyond = f.x - street.route.upperBound
            #expect(beyond >= 50 && beyond <= 300, "\(f.id) is \(beyond) m beyond the routes")
            let front = try #require(planes.first { $0.id == "street/\(f.id)/front" })
            #expect(dot(front.normal, SIMD3(-1, 0, 0)) > 0.999)
            #expect(StreetTextures.Surface(front.texture) == .farBuilding)
        }
        #expect(street.far.map(\.x).max()! - street.far.map(\.x).min()! > 150)
        // The ground covers the street from end to end; sections hold the planes' sections.
        let ground = planes.filter { $0.id.hasPrefix("street/ground-") }
        #expect(abs(ground.reduce(0) { $0 + $1.size.x } - (street.end - street.start)) < 1e-6)
        #expect(Set(planes.map(\.sectionId)) == Set(street.sections.map(\.id)))
    }

    @Test func textureDensityFollowsTheSurface() {
        #expect(StreetTextures.Surface("street/n01/facade/n01") == .facade)
        #expect(StreetTextures.Surface("street/n01/side-west") == .sideWall)
        #expect(StreetTextures.Surface("street/ground-03") == .ground)
        #expect(StreetTextures.Surface("street/far-ground") == .farGround)
        #expect(StreetTextures.Surface("street/far-04/front") == .farBuilding)
        #expect(StreetTextures.Surface("room-a/north-wall1") == nil)
        let plane = SceneDescription.Plane(id: "f", sectionId: "street", kind: .wall, texture: "street/far-01/front",
                                           corners: [SIMD3(0, 0, 0), SIMD3(0, 0, 10), SIMD3(0, 50, 10), SIMD3(0, 50, 0)])
        // 24 px/m: a 10 × 50 m far face is 240 × 1200 texels, not 2560 × 8192.
        #expect(ScenePlanner.textureSize(plane) == (240, 1200))
    }

    /// A facade's windows are one design on a regular grid, drawn a little differently
    /// each: a storey's band repeats from one window to the next (and is out of phase half
    /// a pitch off), yet no two windows are the same pixels.
    @Test func facadeWindowsRepeatWithoutBeingCopies() throws {
        let street = try Self.street(5)
        let planes = street.planes()
        var checked = 0
        for b in street.buildings.prefix(8) {
            let plane = try #require(planes.first { $0.id == "street/\(b.id)/facade" })
            let (w, h) = ScenePlanner.textureSize(plane)
            let ppm = Double(w) / plane.size.x
            let design = StreetTextures.facadeDesign(seed: 5, design: b.design, size: plane.size)
            #expect(design.columns.count >= 3 && design.storeys >= 1)
            let pitches = zip(design.columns, design.columns.dropFirst()).map { $1 - $0 }
            #expect(pitches.allSatisfy { abs($0 - pitches[0]) < 1e-9 })
            let ops = ProceduralTextures.ops(kind: .wall, width: w, height: h, pixelsPerMetre: ppm, seed: 5,
                                             textureId: plane.texture)
            let image = try RenderTexture(width: w, height: h, ops: ops).image()
            /// The grey level down each texel column of the band of storey `k` (its windows,
            /// sills and lintels), from `x` metres on over one window pitch, in blocks of 4
            /// columns (the scale a camera sees from 15 m).
            func profile(_ k: Int, from x: Double, pitch: Double) -> [Double] {
                let o = design.windowOrigin(storey: k, column: 0)
                let rows = Int(Double(h) - (o.y + design.window.y + 0.26) * ppm)...Int(Double(h) - (o.y - 0.1) * ppm)
                return stride(from: Int(x * ppm), to: Int((x + pitch) * ppm) - 3, by: 4).map { x0 in
                    var sum = 0.0
                    for x in x0..<(x0 + 4) {
                        for y in rows {
                            let p = (min(h - 1, max(0, y)) * w + min(w - 1, max(0, x))) * 3
                            sum += Double(image.pixels[p]) + Double(image.pixels[p + 1]) + Double(image.pixels[p + 2])
                        }
                    }
                    return sum
                }
            }
            /// The pixels of a window (glass and surround) of storey `k`, column `c`.
            func window(_ k: Int, _ c: Int) -> [UInt8] {
                let o = design.windowOrigin(storey: k, column: c)
                var out: [UInt8] = []
                for y in Int(Double(h) - (o.y + design.window.y) * ppm)..<Int(Double(h) - o.y * ppm) {
                    let row = (y * w + Int(o.x * ppm)) * 3
                    out += image.pixels[row..<(row + Int(design.window.x * ppm) * 3)]
                }
                return out
            }
            func correlation(_ a: [Double], _ b: [Double]) -> Double {
                let ma = a.reduce(0, +) / Double(a.count), mb = b.reduce(0, +) / Double(b.count)
                var ab = 0.0, aa = 0.0, bb = 0.0
                for (x, y) in zip(a, b) { ab += (x - ma) * (y - mb); aa += (x - ma) * (x - ma); bb += (y - mb) * (y - mb) }
                return ab / max(1e-9, (aa * bb).squareRoot())
            }
            // The top storey: no balcony railings in front of some of its windows. Each window's
            // stretch of the band against the next one's, and against a stretch half a pitch off.
            let storey = design.storeys, pitch = pitches[0]
            var alike: [Double] = [], unlike: [Double] = []
            for c in 0..<(design.columns.count - 1) {
                #expect(window(storey, c) != window(storey, c + 1), "\(b.id): windows \(c) and \(c + 1) are the same pixels")
                let here = profile(storey, from: design.columns[c] - pitch / 2, pitch: pitch)
                alike.append(correlation(here, profile(storey, from: design.columns[c + 1] - pitch / 2, pitch: pitch)))
                unlike.append(correlation(here, profile(storey, from: design.columns[c], pitch: pitch)))
            }
            let meanAlike = alike.reduce(0, +) / Double(alike.count), meanUnlike = unlike.reduce(0, +) / Double(unlike.count)
            #expect(meanAlike > 0.35, "\(b.id): neighbouring windows correlate \(meanAlike)")
            #expect(meanAlike > meanUnlike + 0.5, "\(b.id): a pitch apart \(meanAlike), half a pitch \(meanUnlike)")
            checked += 1
        }
        #expect(checked == 8)
        // A terrace's buildings share their design: the same grid on facades of the same width.
        let row = street.buildings.filter { $0.side == .north }
        let pair = try #require(zip(row, row.dropFirst()).first { $0.design == $1.design })
        let a = StreetTextures.facadeDesign(seed: 5, design: pair.0.design, size: SIMD2(10, pair.0.height))
        let b = StreetTextures.facadeDesign(seed: 5, design: pair.1.design, size: SIMD2(10, pair.1.height))
        #expect(a == b)
    }

    @Test func mappingWalksForwardDownTheStreetAtPhoneHeight() throws {
        let street = try Self.street(5)
        let poses = try Self.poses(.mapping, frames: 90)
        let xs = poses.map(\.center.x)
        #expect(xs.last! - xs.first! >= 80)
        #expect(zip(xs, xs.dropFirst()).allSatisfy { $1 > $0 }, "the mapping walk goes forward only")
        for p in poses {
            #expect(p.center.y > 1.35 && p.center.y < 1.65)
            #expect(abs(p.center.z) < street.halfWidth - 2, "off the pavement's edge: \(p.center)")
            // Looking along the street: a mild sway, never more than 10° aside, level.
            #expect(abs(Self.yaw(p)) < 10 * .pi / 180)
            #expect(abs(p.rotation.rotate(SIMD3(0, 0, 1)).y) < sin(6 * .pi / 180))
        }
        #expect(poses.contains { Self.yaw($0) > 2 * .pi / 180 } && poses.contains { Self.yaw($0) < -2 * .pi / 180 })
    }

    /// The query walks the same stretch on another line, another phase: never on a mapping
    /// frame, mostly looking ahead, a few frames 20–35° toward a facade (both sides).
    @Test func queryWalkIsAnotherWalkOverTheSameStretch() throws {
        let mapping = try Self.poses(.mapping, frames: 90), walk = try Self.poses(.walk, frames: 32)
        let mx = mapping.map(\.center.x), wx = walk.map(\.center.x)
        #expect(wx.min()! >= mx.min()! && wx.max()! <= mx.max()!)
        #expect(wx.max()! - wx.min()! >= 0.85 * (mx.max()! - mx.min()!))
        let offset = walk.map(\.center.z).reduce(0, +) / Double(walk.count) - mapping.map(\.center.z).reduce(0, +) / Double(mapping.count)
        #expect(abs(offset) >= 1 && abs(offset) <= 2.5, "lateral offset \(offset) m")
        for p in walk {
            let nearest = mapping.map { length($0.center - p.center) }.min()!
            #expect(nearest > 1, "a query frame \(nearest) m from a mapping frame")
            #expect(p.center.y > 1.3 && p.center.y < 1.65)
        }
        let yaws = walk.map { abs(Self.yaw($0)) * 180 / .pi }
        let aside = walk.filter { (20...35).contains(abs(Self.yaw($0)) * 180 / .pi) }
        #expect(aside.count >= 3 && aside.count <= walk.count / 3)
        #expect(aside.contains { Self.yaw($0) > 0 } && aside.contains { Self.yaw($0) < 0 })
        #expect(yaws.filter { $0 < 12 }.count >= walk.count / 2)
        // It is not the mapping walk: other pitch.
        let pitch = { (ps: [Pose]) in ps.map { asin($0.rotation.rotate(SIMD3(0, 0, 1)).y) }.reduce(0, +) / Double(ps.count) }
        #expect(pitch(walk) - pitch(mapping) > 0.02)
    }

    /// Every frame of both routes sees some of the skyline: a far building's front in the
    /// image, and the first surface along the ray to it.
    @Test func skylineIsInViewFromEveryFrame() throws {
        let generator = try SyntheticSessionGenerator(options: Self.options(.mapping, frames: 90))
        let scene = generator.plannedScene().scene
        let camera = generator.camera
        let fronts = scene.planes.filter { $0.id.hasSuffix("/front") }
        #expect(fronts.count >= 5)
        let samples = fronts.flatMap { f in
            stride(from: 0.05, through: 0.95, by: 0.1).flatMap { u in
                stride(from: 0.05, through: 0.95, by: 0.1).map { v in (f, f.point(u: u, v: v)) }
            }
        }
        for route in [SyntheticSessionOptions.Route.mapping, .walk] {
            let poses = try Self.poses(route, frames: route == .mapping ? 90 : 32)
            for (k, pose) in poses.enumerated() {
                let seen = samples.contains { plane, p in
                    guard let px = camera.project(pose.inverse.apply(p)), px.x >= 0, px.y >= 0,
                          px.x < Double(camera.width), px.y < Double(camera.height) else { return false }
                    let hit = SynthGeneratorTests.rayCast(origin: pose.center, direction: normalize(p - pose.center),
                                                          planes: scene.planes)
                    return hit >= 0 && scene.planes[hit].id == plane.id
                }
                #expect(seen, "\(route) frame \(k) sees no far building")
            }
        }
    }

    @Test func optionsRefuseNonsense() throws {
        var o = Self.options(.walk, frames: 32)
        #expect(o.problem == nil)
        o.layout = "streets"
        #expect(o.problem?.contains("unknown layout 'streets'") == true)
        #expect(o.problem?.contains("street") == true)
        #expect(throws: SynthesisError.self) { try SyntheticSessionGenerator(options: o) }
        let changes: [(inout SyntheticSessionOptions) -> Void] = [
            { $0.horizontalFieldOfViewDegrees = 179 }, { $0.frameCount = 0 }, { $0.textureScale = 0 }, { $0.width = 8 },
            { $0.effectsStrength = -1 }]
        for change in changes {
            var bad = Self.options(.mapping, frames: 90)
            change(&bad)
            #expect(bad.problem != nil)
            #expect(throws: SynthesisError.self) { try SyntheticSessionGenerator(options: bad) }
        }
    }

    /// A small render: deterministic, a valid session whose cameras stand in the street
    /// under a sky, and a scene with the street's sections, AR content and navigation.
    @Test func smallRenderIsDeterministicAndValid() async throws {
        var o = Self.options(.walk, frames: 3)
        o.width = 96; o.height = 72; o.textureScale = 0.1
        let a = try ScratchDirectory("street-a"), b = try ScratchDirectory("street-b")
        try await SyntheticSessionGenerator(options: o).generate(to: a.url)
        try await SyntheticSessionGenerator(options: o).generate(to: b.url)
        #expect(try SynthGeneratorTests.files(a.url) == SynthGeneratorTests.files(b.url))
        #expect(SessionValidator.validate(directory: a.url).isEmpty)
        let session = try RecordedSession.load(from: a.url), scene = try SceneDescription.load(from: a.url)
        #expect(scene.name == "street" && scene.sections.map(\.id) == ["street", "plaza"])
        let street = try #require(scene.sections.first)
        for f in session.frames { #expect(street.contains(try #require(f.pose).center)) }
        #expect(Set(scene.objects.map(\.kind)) == [.graffiti, .link, .collectible])
        let nodes = Dictionary(uniqueKeysWithValues: scene.navigation.nodes.map { ($0.id, $0) })
        #expect(scene.navigation.edges.count == nodes.count - 1)
        for e in scene.navigation.edges {
            let p = try #require(nodes[e.from]), q = try #require(nodes[e.to])
            #expect(abs(e.weight - length(p.position - q.position)) < 0.001)
        }
        // Straight ahead at the top of the first frame: the sky (light), between the rows.
        let image = try GrayImage(decoding: Array(try Data(contentsOf: a.url.appendingPathComponent(session.frames[0].image))))
        let top = (image.width / 3..<2 * image.width / 3).map { Double(image[$0, 1]) }
        #expect(top.reduce(0, +) / Double(top.count) > 150)
    }

    @Test func shippedStreetSessionsShareTheirSceneAndAreValid() throws {
        let root = SynthShippedDatasetTests.datasets
        let mapping = root.appendingPathComponent("street-mapping"), walk = root.appendingPathComponent("street-query-walk")
        for dir in [mapping, walk] { #expect(SessionValidator.validate(directory: dir).isEmpty, "\(dir.lastPathComponent)") }
        let a = try RecordedSession.load(from: mapping), b = try RecordedSession.load(from: walk)
        #expect(a.frames.count >= 90 && b.frames.count >= 30)
        #expect(a.camera == b.camera && a.camera.width == 640 && a.camera.height == 480)
        // fx for the default 62° field of view.
        #expect(abs(a.camera.fx - 320 / tan(31 * Double.pi / 180)) < 0.01)
        let scene = try SceneDescription.load(from: mapping)
        #expect(scene == (try SceneDescription.load(from: walk)))
        // The scene is what the generator plans today for the options make-datasets.sh uses.
        let planned = try SyntheticSessionGenerator(options: Self.options(.mapping, frames: 90)).plannedScene().scene
        #expect(scene == planned)
        // Ground truth is the generator's trajectory, frame for frame.
        let poses = try Self.poses(.walk, frames: b.frames.count)
        for (f, p) in zip(b.frames, poses) {
            let e = try #require(f.pose).error(to: p)
            #expect(e.translation < 1e-5 && e.rotationDegrees < 1e-4)
        }
    }
}
