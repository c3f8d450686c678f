import Foundation
import Geometry
@testable import Localization
import MapBuilding
import MapModel
import TestSupport
import Testing

@Suite struct MapPartsTests {
    @Test func aMapCapturedInOneGoIsOnePartAndAMergedVenueHasOnePerCapture() throws {
        let a = try makeSyntheticMap(pointCount: 400, keyframeCount: 30, seed: 1)
        let b = try makeSyntheticMap(pointCount: 300, keyframeCount: 25, seed: 2)
        #expect(MapParts(map: a, minKeyframes: 20).count == 0)
        let venue = try MapMerger().merge([.init(map: a, placement: .identity, name: "a"),
                                           .init(map: b, placement: Pose(rotation: .identity, translation: SIMD3(100, 0, 0)),
                                                 name: "b")], name: "v")
        let parts = MapParts(map: venue, minKeyframes: 20)
        #expect(parts.keyframes == [Array(0..<30), Array(30..<55)])
        #expect(parts.partOfKeyframe[29] == 0 && parts.partOfKeyframe[30] == 1)
        // Votes on the second part's keyframes rank it first.
        var votes = [Float](repeating: 0, count: 55)
        votes[40] = 5; votes[3] = 2
        #expect(parts.ranked(byKeyframeVotes: votes) == [1, 0])
        // A part below the size of one is a fragment: with one part left there is nothing to search apart.
        #expect(MapParts(map: venue, minKeyframes: 26).count == 0)
    }
}
