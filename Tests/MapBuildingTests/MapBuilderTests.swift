import Foundation
import Geometry
import Testing
import MapModel
import MapBuilding
import TestSupport
import VPSModel
import Vision
import Storage

@Suite("Map builder", .serialized)
struct MapBuilderTests {
    static var session: (dir: URL, session: RecordedSession) { PlaneSceneRenderer.sharedSession }
    static func options() -> MapBuildOptions { PlaneSceneRenderer.mapBuildOptions() }
    /// The wall's map with the tests' options, built once for every test that only reads it
    /// (a build is a minute under ASan), with the builder's log lines.
    static let plainBuild: Result<(map: VPSMap, report: MapBuildReport, log: [String]), any Error> = Result {
        let (dir, recorded) = PlaneSceneRenderer.sharedSession
        let frames = try MapBuildFrame.frames(of: recorded, in: dir)
        var lines: [String] = []
        let (map, report) = try MapBuilder(options: options())
            .build(frames: frames, metadata: MapMetadata(name: "wall", source: dir.path)) { lines.append($0) }
        return (map, report, lines)
    }

    @Test func buildsPointsOnTheWallThatReprojectOntoTheirObservations() throws {
        let (map, report, lines) = try Self.plainBuild.get()
        #expect(report.keyframes == 8)
        #expect(report.pairs >= 7)
        #expect(map.points.count > 300, "only \(map.points.count) points: \(lines)")
        #expect(lines.map { $0.prefix { $0 != ":" } } == ["extract", "pairs", "depths", "match", "tracks", "triangulate",
                                                          "extend", "descriptors", "vocabulary", "sections"])
        // The probe measured the wall's depths (the cameras stand 2.5-4 m from it).
        let depth = try #require(report.sceneDepth)
        #expect(depth.median > 2 && depth.median < 5)

        // Points lie on the wall (z = 4), without bias, to within the depth resolution of
        // 320x240 images with ORB keypoints up to pyramid level 7 and ~1 m baselines at 4 m.
        let signed = (0..<map.points.count).map { map.points.position($0).z - PlaneSceneRenderer.wallZ }.sorted()
        let absolute = signed.map(abs).sorted()
        #expect(abs(signed[signed.count / 2]) < 0.01)
        #expect(absolute[absolute.count / 2] < 0.025)
        #expect(absolute[absolute.count * 9 / 10] < 0.10)
        // ...and reprojects onto every one of its observations within the builder's threshold.
        let errors = MapGeometry.reprojectionErrors(of: map)
        #expect(errors.count == map.observations.count)
        for (o, e) in zip(map.observations, errors) {
            #expect(e <= MapBuilder.allowedError(octave: o.octave, Self.options()) + 1e-3)
        }
        // Multi-view tracks, not just pairs.
        #expect(map.points.observationCounts.contains { $0 >= 4 })

        // Each point's descriptor falls in its own word.
        let vocab = try #require(map.vocabulary)
        #expect(vocab.words(for: map.points.descriptors) == map.points.words)
        #expect(vocab.words(for: map.viewDescriptors.descriptors) == map.viewDescriptors.words)
        #expect(map.viewDescriptors.count >= map.points.count && map.viewDescriptors.count == report.viewDescriptors)
        // Without a scene, sections come from clustering and cover every point.
        #expect(!map.scene.sections.isEmpty)
        #expect(map.points.sections.allSatisfy { $0 >= 0 })
        #expect(map.metadata.builder["orbFeatures"] == "800")
    }

    /// With simulated views, points are also described from ASIFT's simulated views of their
    /// keyframes: the same points and vocabulary, the photos' own descriptors unchanged, and
    /// the simulated ones apart, each a view's own (not a copy).
    @Test func simulatedViewsAddDescriptorsToTheSamePoints() throws {
        let (dir, session) = Self.session
        let frames = try MapBuildFrame.frames(of: session, in: dir)
        var with = Self.options()
        #expect(with.simulatedViews == .never, "the plain map is built without simulated views")
        with.simulatedViews = .fewPhotos
        let plain = try Self.plainBuild.get().map
        let (rich, report) = try MapBuilder(options: with).build(frames: frames, metadata: MapMetadata(name: "wall", source: ""))
        #expect(plain.points.count == rich.points.count)
        #expect(rich.viewDescriptors == plain.viewDescriptors && rich.points.words == plain.points.words)
        let simulated = rich.simulatedViewDescriptors
        #expect(simulated.count > plain.points.count / 4, "\(simulated.count) simulated descriptors")
        #expect(simulated.count == report.simulatedViewDescriptors && plain.simulatedViewDescriptors.count == 0)
        #expect(zip(simulated.points, simulated.points.dropFirst()).allSatisfy { $0 <= $1 }, "grouped by point")
        let perPoint = Dictionary(grouping: simulated.points, by: { $0 }).values.map(\.count).max() ?? 0
        #expect(perPoint <= with.maxAffineDescriptorsPerPoint, "at most \(with.maxAffineDescriptorsPerPoint) per point")
        #expect(rich.metadata.builder["affineViews"] == "true" && plain.metadata.builder["affineViews"] == "false")
        #expect(rich.metadata.builder["simulatedViews"] == "fewPhotos")
        // No point gets a descriptor twice, nor one it has from its photos.
        let merged = rich.withSimulatedViewsMatched().viewDescriptors
        let distinct = Set((0..<merged.count).map { i in
            withUnsafeBytes(of: merged.points[i]) { Array($0) } + Array(merged.descriptor(i))
        })
        #expect(distinct.count == merged.count)
    }

    /// By default a map of few photos (ORB) gets simulated views and a map of many, or a
    /// SIFT map, does not; `--affine-views` / `--no-affine-views` decide for any map.
    @Test func simulatedViewsByDefaultOnlyOnORBMapsOfFewPhotos() {
        var o = MapBuildOptions()
        #expect(o.simulatedViews == .fewPhotos)
        #expect(o.describesSimulatedViews(keyframes: 4) && o.describesSimulatedViews(keyframes: 19))
        #expect(!o.describesSimulatedViews(keyframes: 20) && !o.describesSimulatedViews(keyframes: 180))
        o.featureType = .sift
        #expect(!o.describesSimulatedViews(keyframes: 4))
        o = MapBuildOptions()
        o.useFeatureCount(3000)     // an exact count: no map counts as one of few photos
        #expect(!o.describesSimulatedViews(keyframes: 4))
        o.simulatedViews = .always
        #expect(o.describesSimulatedViews(keyframes: 180) && o.affineViews)
        o.affineViews = false
        #expect(o.simulatedViews == .never && !o.describesSimulatedViews(keyframes: 4))
    }

    @Test func buildWriteReopenRoundTrip() throws {
        let (dir, session) = Self.session
        let scratch = try makeScratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let scene = SceneContent(
            sections: [MapSection(id: "left", name: "Left", boundsMin: SIMD3(-3, -1, 3), boundsMax: SIMD3(0, 4, 5)),
                       MapSection(id: "right", name: "Right", boundsMin: SIMD3(0, -1, 3), boundsMax: SIMD3(3, 4, 5))],
            objects: [SceneObject(id: "g", kind: .graffiti, sectionId: "left",
                                  pose: .init(rotation: .identity, translation: SIMD3(-1, 1.5, 3.99)), extent: SIMD3(1, 1, 0))],
            navigation: NavigationGraph(nodes: [.init(id: "n", name: "N", position: SIMD3(0, 0, 2), sectionId: "left")]))
        let (map, _) = try MapBuilder(options: Self.options())
            .build(frames: try MapBuildFrame.frames(of: session, in: dir), metadata: MapMetadata(name: "wall"), scene: scene)
        #expect(map.scene == scene)
        // Points are split between the two halves of the wall by their x.
        for i in 0..<map.points.count {
            #expect(map.sectionId(ofPoint: i) == (map.points.position(i).x < 0 ? "left" : "right"))
        }
        let path = scratch + "/wall.vpsmap"
        try map.write(to: path)
        let back = try VPSMap.load(from: path)
        #expect(back.points == map.points)
        #expect(back.observations == map.observations)
        #expect(back.keyframes == map.keyframes)
        #expect(back.scene == scene)
        #expect(MapGeometry.reprojectionErrors(of: back) == MapGeometry.reprojectionErrors(of: map))
    }

    /// Nothing in the builder is a length: the same frames with every translation scaled
    /// by 0.25 or 10 give the same map, scaled.
    @Test func theSameFramesAtAnotherScaleGiveTheSameMap() throws {
        let (dir, session) = Self.session
        let frames = try MapBuildFrame.frames(of: session, in: dir)
        var o = Self.options()
        o.threads = 2
        let reference = try MapBuilder(options: o).build(frames: frames, metadata: MapMetadata(name: "wall")).map
        for scale in [0.25, 10.0] {
            let scaled = frames.map { f in
                var g = f
                g.pose = Pose(rotation: f.pose.rotation, translation: f.pose.translation * scale)
                return g
            }
            let map = try MapBuilder(options: o).build(frames: scaled, metadata: MapMetadata(name: "wall")).map
            #expect(map.points.count == reference.points.count, "scale \(scale)")
            #expect(map.observations.count == reference.observations.count, "scale \(scale)")
            #expect(map.viewDescriptors.count == reference.viewDescriptors.count, "scale \(scale)")
            guard map.points.count == reference.points.count else { continue }
            let worst = (0..<map.points.count).map { length(map.points.position($0) - reference.points.position($0) * scale) }.max()!
            #expect(worst < 1e-6 * scale, "scale \(scale): worst point \(worst)")
        }
    }

    @Test func tooFewFramesAndMissingImagesAreClearErrors() throws {
        let (dir, session) = Self.session
        let frames = try MapBuildFrame.frames(of: session, in: dir)
        let builder = MapBuilder(options: Self.options())
        #expect(throws: MapBuildError.self) { try builder.build(frames: Array(frames.prefix(1)), metadata: .init(name: "x")) }
        var broken = frames
        broken[2].imageURL = dir.appendingPathComponent("frames/missing.png")
        let e = #expect(throws: MapBuildError.self) { try builder.build(frames: broken, metadata: .init(name: "x")) }
        #expect(e?.description.contains("missing.png") == true)
    }
}
