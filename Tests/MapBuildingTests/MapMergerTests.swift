import Foundation
import Geometry
import MapBuilding
import MapModel
import TestSupport
import Testing

@Suite struct MapMergerTests {
    @Test func placesEveryPartAndKeepsItsContentApart() throws {
        let a = try makeSyntheticMap(pointCount: 300, seed: 1)
        let b = try makeSyntheticMap(pointCount: 200, keyframeCount: 10, seed: 2)
        let turn = Pose(rotation: Quaternion(axis: SIMD3(0, 1, 0), angle: .pi / 2), translation: SIMD3(100, 0, 0))
        let venue = try MapMerger().merge([.init(map: a, placement: .identity, name: "a"),
                                           .init(map: b, placement: turn, name: "b")], name: "venue")
        #expect(venue.points.count == 500 && venue.keyframes.count == 30)
        #expect(venue.observations.count == a.observations.count + b.observations.count)
        // Part b's point i is point 300 + i, placed; its keyframes are placed the same way.
        for i in [0, 17, 199] {
            let placed = turn.apply(b.points.position(i))
            #expect(length(venue.points.position(300 + i) - placed) < 1e-12)
            #expect(venue.points.descriptor(300 + i).elementsEqual(b.points.descriptor(i)))
        }
        #expect(venue.keyframes[20].pose.error(to: turn * b.keyframes[0].pose).translation < 1e-12)
        // Observations follow their points and keyframes into the venue's numbering.
        let kb = venue.observations(inKeyframe: 25)
        #expect(kb.count == b.observations(inKeyframe: 5).count)
        #expect(kb.allSatisfy { $0.point >= 300 })
        // Ids are prefixed; sections, objects and nodes are placed.
        #expect(venue.scene.sections.map(\.id) == ["a/room-a", "a/room-b", "b/room-a", "b/room-b"])
        #expect(venue.sectionId(ofPoint: 300 + 5) == b.sectionId(ofPoint: 5).map { "b/" + $0 })
        let node = try #require(venue.scene.navigation.nodes.first { $0.id == "b/n-a" })
        #expect(length(node.position - turn.apply(SIMD3(-2.5, 0, 0))) < 1e-12)
        #expect(venue.scene.navigation.edges.contains { $0.from == "b/n-a" && $0.to == "b/n-b" })
        // A placed section's box still holds the part's points that were in it.
        for i in 0..<b.points.count where b.points.sections[i] >= 0 {
            let s = venue.scene.sections[Int(venue.points.sections[300 + i])]
            let p = venue.points.position(300 + i)
            #expect(all(p .>= s.boundsMin! - 1e-9) && all(p .<= s.boundsMax! + 1e-9))
        }
        // One vocabulary over both parts: every word within it.
        let words = try #require(venue.vocabulary).wordCount
        #expect(venue.points.words.allSatisfy { Int($0) < words })
        #expect(venue.viewDescriptors.count == a.viewDescriptors.count + b.viewDescriptors.count)
    }

    /// A part's simulated-view descriptors follow its points into the venue, still apart.
    @Test func keepsEachPartsSimulatedViewsOnItsPoints() throws {
        let a = try makeSyntheticMap(pointCount: 100, seed: 1)
        let plain = try makeSyntheticMap(pointCount: 80, keyframeCount: 10, seed: 2)
        var d = Array(plain.points.descriptor(7)); d[0] ^= 0x3C
        let b = try VPSMap(metadata: plain.metadata, scene: plain.scene, keyframes: plain.keyframes, points: plain.points,
                           observations: plain.observations, vocabulary: plain.vocabulary,
                           viewDescriptors: plain.viewDescriptors,
                           simulatedViewDescriptors: MapViewDescriptors(descriptors: d, points: [7], words: [0]))
        let venue = try MapMerger().merge([.init(map: a, placement: .identity, name: "a"),
                                           .init(map: b, placement: .identity, name: "b")], name: "venue")
        #expect(venue.simulatedViewDescriptors.points == [107])
        #expect(Array(venue.simulatedViewDescriptors.descriptor(0)) == d)
        #expect(venue.simulatedViewDescriptors.words == (try #require(venue.vocabulary)).words(for: d))
        #expect(venue.viewDescriptors.count == a.viewDescriptors.count + b.viewDescriptors.count)
    }

    @Test func refusesPartsThatDisagree() throws {
        let a = try makeSyntheticMap(pointCount: 50, seed: 1)
        var b = try makeSyntheticMap(pointCount: 50, seed: 2)
        #expect(throws: MapMerger.Refusal.self) {
            try MapMerger().merge([.init(map: a, placement: .identity, name: "x"),
                                   .init(map: b, placement: .identity, name: "x")], name: "v")
        }
        // A placement that tips one part's up over is refused: gravity is one for the venue.
        let tipped = Pose(rotation: Quaternion(axis: SIMD3(1, 0, 0), angle: 0.2), translation: .zero)
        #expect(throws: MapMerger.Refusal.self) {
            try MapMerger().merge([.init(map: a, placement: .identity, name: "a"),
                                   .init(map: b, placement: tipped, name: "b")], name: "v")
        }
        b.metadata.units = .unknown
        #expect(throws: MapMerger.Refusal.self) {
            try MapMerger().merge([.init(map: a, placement: .identity, name: "a"),
                                   .init(map: b, placement: .identity, name: "b")], name: "v")
        }
        // A query is described one way: ORB and SIFT parts do not mix, SIFT parts merge as SIFT.
        var sift = try makeSyntheticMap(pointCount: 50, seed: 3)
        sift.metadata.featureType = .sift
        #expect(throws: MapMerger.Refusal.self) {
            try MapMerger().merge([.init(map: a, placement: .identity, name: "a"),
                                   .init(map: sift, placement: .identity, name: "s")], name: "v")
        }
        var sift2 = try makeSyntheticMap(pointCount: 50, seed: 4)
        sift2.metadata.featureType = .sift
        let merged = try MapMerger().merge([.init(map: sift, placement: .identity, name: "s"),
                                            .init(map: sift2, placement: .identity, name: "t")], name: "v")
        #expect(merged.metadata.featureType == .sift)
        #expect(throws: MapMerger.Refusal.self) { try MapMerger().merge([], name: "v") }
    }
}
