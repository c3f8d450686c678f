import Foundation
import Geometry
import Testing
import Formats
import MapModel
import MapBuilding
import VPSModel
import TestSupport

/// The map builder on real photos: `RealPhotoData.monstree` (iPhone photos of a tree
/// sculpture, COLMAP poses in arbitrary units; see its README).
@Suite("Map builder on real photos", .serialized, .needsRealPhotos("monstree"))
struct RealPhotoMapTests {
    static let monstree = RealPhotoData.monstree

    func frames(_ split: String) throws -> [MapBuildFrame] {
        let model = try COLMAPModel.load(from: Self.monstree.appendingPathComponent("\(split)/map"))
        return try MapBuildFrame.frames(of: model, images: Self.monstree.appendingPathComponent("images"))
    }

    func build(_ frames: [MapBuildFrame]) throws -> (map: VPSMap, report: MapBuildReport) {
        var options = MapBuildOptions()
        options.threads = 2
        return try MapBuilder(options: options)
            .build(frames: frames, metadata: MapMetadata(name: "monstree", units: .unknown, up: .unknown))
    }

    /// Four photos 11–64° apart: every couple that can share content is paired (the
    /// metric frustum guess paired 2 of 6), and the map keeps points seen from each photo,
    /// matchable from more than one direction. Measured: 5 pairs, 960 points, 1266 view
    /// descriptors with 6,000 features per photo (397 and 522 with 2,500: a map of four photos
    /// now gets more, `MapBuildOptions.minFeaturesPerMap`).
    @Test func wideBaselineMapPairsItsPhotosAndSeesFromEveryView() throws {
        let (map, report) = try build(try frames("split-s6"))
        #expect(report.pairs >= 5)
        #expect(map.points.count >= 350, "\(map.points.count) points")
        #expect(map.viewDescriptors.count > map.points.count * 6 / 5, "\(map.viewDescriptors.count) view descriptors")
        for k in map.keyframes.indices {
            #expect(map.observations(inKeyframe: k).count >= 30, "keyframe \(k) sees \(map.observations(inKeyframe: k).count)")
        }
        // One section: a map in unknown units with an unknown up has no floor plan to divide.
        #expect(map.scene.sections.count == 1)
        #expect(map.metadata.units == .unknown && map.metadata.up == .unknown)
    }

    /// Nothing in the map builder is a length of its own: the same split with every translation times 0.25 or 10 builds
    /// the same map up to that scale (same points, observations and view descriptors).
    @Test func theSameSplitAtAnotherScaleGivesTheSameMap() throws {
        let frames = try frames("split-s6")
        let reference = try build(frames).map
        for scale in [0.25, 10.0] {
            let scaled = frames.map { f in
                var g = f
                g.pose = Pose(rotation: f.pose.rotation, translation: f.pose.translation * scale)
                return g
            }
            let map = try build(scaled).map
            #expect(map.points.count == reference.points.count, "scale \(scale)")
            #expect(map.observations.count == reference.observations.count, "scale \(scale)")
            #expect(map.viewDescriptors.count == reference.viewDescriptors.count, "scale \(scale)")
            guard map.points.count == reference.points.count else { continue }
            let worst = (0..<map.points.count)
                .map { length(map.points.position($0) - reference.points.position($0) * scale) / scale }.max()!
            #expect(worst < 1e-6, "scale \(scale): a point moved \(worst) (in the reference's units)")
        }
    }
}
