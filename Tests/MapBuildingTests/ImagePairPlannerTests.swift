import Geometry
import Testing
@testable import MapBuilding

/// The keyframe pairs the map builder matches: the most similar images among the nearest
/// viewable cameras.
@Suite struct ImagePairPlannerTests {
    /// Six cameras 1 m apart along x, all looking along +z. Keyframe 5 shows what keyframe
    /// 0 shows (the same descriptors); the others show content of their own.
    let poses = (0..<6).map { Pose(rotation: .identity, translation: SIMD3(Double($0), 0, 0)) }
    let descriptors: [[UInt8]] = (0..<6).map { k in
        let seed = k == 5 ? 0 : k
        var state = UInt32(2_654_435_761 &* UInt32(seed + 1))
        return (0..<32 * 300).map { _ in
            state = state &* 1_664_525 &+ 1_013_904_223
            return UInt8(truncatingIfNeeded: state >> 24)
        }
    }

    @Test func theMostSimilarViewableCameraIsTheBestPartner() throws {
        let planner = ImagePairPlanner(maxViewAngleDegrees: 80, partnersPerKeyframe: 2)
        let (pairs, ranked) = try planner.pairs(descriptors: descriptors, poses: poses, threads: 2)
        #expect(ranked[0].first.map { [$0.a, $0.b] } == [0, 5])
        #expect(ranked[0].first!.similarity > 0.99)
        #expect(ranked.allSatisfy { $0.count == 2 })
        #expect(pairs.contains { $0.a == 0 && $0.b == 5 })
        #expect(pairs == pairs.sorted { ($0.a, $0.b) < ($1.a, $1.b) })
    }

    @Test func onlyTheNearestCamerasAreScored() throws {
        var planner = ImagePairPlanner(maxViewAngleDegrees: 80, partnersPerKeyframe: 2)
        planner.maxCandidates = 2
        let (pairs, ranked) = try planner.pairs(descriptors: descriptors, poses: poses, threads: 2)
        // Keyframe 5 stands 5 m from keyframe 0: beyond its two nearest cameras, 1 and 2.
        #expect(Set(ranked[0].map(\.b)) == [1, 2])
        #expect(Set(ranked[5].map(\.a)) == [3, 4])
        #expect(!pairs.contains { $0.a == 0 && $0.b == 5 })
    }

    @Test func camerasLookingApartOrFromOneSpotAreNeverPaired() throws {
        var poses = self.poses
        poses[1] = Pose(rotation: Quaternion(x: 0, y: 1, z: 0, w: 0), translation: poses[1].center)  // looks along -z
        poses[2] = Pose(rotation: .identity, translation: poses[0].center)
        let (pairs, _) = try ImagePairPlanner(maxViewAngleDegrees: 80, partnersPerKeyframe: 5)
            .pairs(descriptors: descriptors, poses: poses)
        #expect(!pairs.contains { $0.a == 1 || $0.b == 1 })
        #expect(!pairs.contains { $0.a == 0 && $0.b == 2 })
    }
}
