@testable import Localization
import Testing
import Foundation
import Geometry
import Vision
import MapModel

/// The local map that guided matching projects instead of the whole map.
@Suite struct LocalMapTests {
    /// Four keyframes along x, all looking along +z, except keyframe 3 (at the origin too)
    /// which looks back along -z. Keyframe k observes points 10k ..< 10k + 10; points 5…14
    /// are also seen by keyframe 0 and 1 (overlap), so point 12 has keyframes 0 and 1.
    let map: VPSMap

    init() throws {
        let camera = CameraIntrinsics(width: 640, height: 480, fx: 500, fy: 500, cx: 320, cy: 240)
        let back = Quaternion(x: 0, y: 1, z: 0, w: 0)  // 180° about y
        let keyframes = [SIMD3(0.0, 0, 0), SIMD3(1, 0, 0), SIMD3(10, 0, 0), SIMD3(0, 0, 0)].enumerated().map { k, c in
            MapKeyframe(name: "k\(k)", timestamp: Double(k),
                        pose: Pose(rotation: k == 3 ? back : .identity, translation: c), intrinsics: camera)
        }
        var observations: [MapObservation] = []
        for k in 0..<4 {
            for p in 10 * k ..< 10 * k + 10 {
                observations.append(MapObservation(point: UInt32(p), keyframe: UInt32(k), pixel: .zero, octave: 0))
            }
        }
        for p in 10..<15 { observations.append(MapObservation(point: UInt32(p), keyframe: 0, pixel: .zero, octave: 0)) }
        let n = 40
        let descriptors = (0..<32 * n).map { UInt8(truncatingIfNeeded: $0 &* 37) }
        let vocabulary = try Vocabulary.train(descriptors: descriptors, parameters: .init(branching: 2, levels: 2))
        let points = MapPoints(positions: [Double](repeating: 1, count: 3 * n), descriptors: descriptors,
                               observationCounts: (0..<n).map { p in UInt32(observations.filter { $0.point == p }.count) },
                               words: descriptors.withUnsafeBytes { vocabulary.quantize($0, nodeDepth: nil).words },
                               sections: [Int32](repeating: -1, count: n))
        map = try VPSMap(metadata: MapMetadata(name: "line", created: Date(timeIntervalSince1970: 0)),
                         keyframes: keyframes, points: points, observations: observations, vocabulary: vocabulary)
    }

    @Test func nearbyKeyframesLookingTheSameWayAreLocal() {
        let local = LocalMap(map: map, nearbyRadius: 2.5)
        // At the origin looking along +z: keyframes 0 and 1 (1 m away); not 2 (10 m away),
        // not 3 (looks the other way).
        let here = Pose(rotation: .identity, translation: .zero)
        #expect(Set(local.keyframes(around: here, inlierPoints: [])) == [0, 1])
    }

    @Test func keyframesThatSeeTheInliersAreLocalWherever() {
        let local = LocalMap(map: map, nearbyRadius: 2.5)
        let here = Pose(rotation: .identity, translation: SIMD3(50, 0, 0))  // near no keyframe
        #expect(local.keyframes(around: here, inlierPoints: [25, 26]) == [2])
        // Most votes first: point 12 is seen by keyframes 0 and 1, point 3 by keyframe 0 only.
        #expect(local.keyframes(around: here, inlierPoints: [12, 3]) == [0, 1])
        var few = local
        few.maxVotedKeyframes = 1
        #expect(few.keyframes(around: here, inlierPoints: [12, 3]) == [0])
    }

    @Test func placeVotesGatherTheVotesOfKeyframesTakenNearby() {
        let local = LocalMap(map: map, nearbyRadius: 2.5)
        // Three votes for keyframe 2 alone; two each for keyframes 0 and 1, one place.
        let voters = [20, 21, 22, 0, 1, 15, 16]
        #expect(local.keyframeVotes(for: voters) == [2, 2, 3, 0])
        #expect(local.placeVotes(for: voters) == [4, 4, 3, 0])
        // Keyframe 3 stands where keyframe 0 does but looks the other way: not its place.
        #expect(local.placeVotes(for: [30, 0]) == [1, 0, 0, 1])
        // A point seen by both keyframes of the place splits its vote, and the place counts it once.
        #expect(local.placeVotes(for: [12]) == [1, 1, 0, 0])
        // A keyframe's place is what the local map finds around its pose without inliers.
        for k in 0..<4 {
            #expect(local.place(of: k) == local.keyframes(around: map.keyframes[k].pose, inlierPoints: []).sorted())
        }
    }

    @Test func placesNeedNoScaleAndTakeAnyCoordinates() throws {
        // Without a length (radius 0 or not finite) a keyframe's place is itself and the
        // keyframes at its very spot looking its way; far coordinates are no harm.
        for radius in [0, -1, .nan, .infinity, 1e-300] {
            let local = LocalMap(map: map, nearbyRadius: radius)
            let votes = local.placeVotes(for: [0, 15, 20])
            #expect(votes.count == 4)
            #expect(votes[2] >= 1)
        }
        var keyframes = map.keyframes
        keyframes[2].pose = Pose(rotation: .identity, translation: SIMD3(1e300, -1e300, 4e19))
        let far = try VPSMap(metadata: map.metadata, keyframes: keyframes, points: map.points,
                             observations: map.observations, vocabulary: map.vocabulary)
        #expect(LocalMap(map: far, nearbyRadius: 2.5).placeVotes(for: [20]) == [0, 0, 1, 0])
    }

    @Test func pointsAreUniqueInKeyframeOrder() {
        let local = LocalMap(map: map, nearbyRadius: 2.5)
        #expect(local.points(observedBy: [1, 0], in: map) == (10..<20).map(Int32.init) + (0..<10).map(Int32.init))
        #expect(local.points(observedBy: [], in: map).isEmpty)
    }
}
