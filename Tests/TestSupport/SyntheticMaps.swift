import Foundation
import Geometry
import MapModel
import Support
import VPSModel
import Vision

/// Deterministic pseudo-random numbers for synthetic maps: the generator the synthetic
/// datasets use (SplitMix64).
package typealias TestRNG = SplitMix64

/// Two rooms side by side along x, a graffiti, a link and a two-node navigation graph.
package func sampleScene() -> SceneContent {
    let a = MapSection(id: "room-a", name: "Room A", boundsMin: SIMD3(-5, -1, -5), boundsMax: SIMD3(0, 3, 5))
    let b = MapSection(id: "room-b", name: "Room B", boundsMin: SIMD3(0, -1, -5), boundsMax: SIMD3(5, 3, 5))
    let objects = [
        SceneObject(id: "g1", kind: .graffiti, sectionId: "room-a",
                    pose: Pose(rotation: Quaternion(axis: SIMD3(0, 1, 0), angle: 0.3), translation: SIMD3(-2, 1.5, 4.9)),
                    extent: SIMD3(1.2, 0.8, 0.01), payload: ["title": "Wave", "artist": "K."]),
        SceneObject(id: "l1", kind: .link, sectionId: "room-b", pose: .init(rotation: .identity, translation: SIMD3(3, 1.4, -4.9)),
                    extent: SIMD3(0.5, 0.7, 0.01), payload: ["url": "https://example.com/x"]),
    ]
    let nav = NavigationGraph(nodes: [.init(id: "n-a", name: "A centre", position: SIMD3(-2.5, 0, 0), sectionId: "room-a"),
                                      .init(id: "n-b", name: "B centre", position: SIMD3(2.5, 0, 0), sectionId: "room-b")],
                              edges: [.init(from: "n-a", to: "n-b", weight: 5)])
    return SceneContent(sections: [a, b], objects: objects, navigation: nav)
}

/// A synthetic map: `pointCount` random points in the two rooms of `sampleScene`, seen by
/// `observationsPerPoint` of `keyframeCount` keyframes each, random descriptors, a trained vocabulary.
package func makeSyntheticMap(pointCount: Int, keyframeCount: Int = 20, observationsPerPoint: Int = 3,
                      seed: UInt64 = 1) throws -> VPSMap {
    var rng = TestRNG(seed: seed)
    let camera = CameraIntrinsics(width: 640, height: 480, fx: 500, fy: 500, cx: 320, cy: 240)
    let keyframes = (0..<keyframeCount).map { i in
        MapKeyframe(name: String(format: "%06d", i), timestamp: Double(i) / 10,
                    pose: Pose(rotation: Quaternion(axis: SIMD3(0, 1, 0), angle: Double(i) * 0.1),
                               translation: SIMD3(Double.random(in: -4...4, using: &rng), 1.5, Double.random(in: -4...4, using: &rng))),
                    intrinsics: camera, section: i % 2)
    }
    var positions = [Double](), descriptors = [UInt8](), sections = [Int32]()
    positions.reserveCapacity(3 * pointCount); descriptors.reserveCapacity(32 * pointCount)
    var observations: [MapObservation] = []
    observations.reserveCapacity(pointCount * observationsPerPoint)
    let scene = sampleScene()
    for i in 0..<pointCount {
        let p = SIMD3(Double.random(in: -5...5, using: &rng), Double.random(in: -1...3, using: &rng),
                      Double.random(in: -5...5, using: &rng))
        positions += [p.x, p.y, p.z]
        for _ in 0..<4 {
            withUnsafeBytes(of: rng.next()) { descriptors.append(contentsOf: $0) }
        }
        sections.append(Int32(SectionAssignment.section(of: p, in: scene.sections) ?? -1))
        let first = Int.random(in: 0..<keyframeCount, using: &rng)
        for j in 0..<observationsPerPoint {
            observations.append(MapObservation(point: UInt32(i), keyframe: UInt32((first + j * 7) % keyframeCount),
                                               pixel: SIMD2(Float.random(in: 0..<640, using: &rng), Float.random(in: 0..<480, using: &rng)),
                                               octave: UInt8.random(in: 0...7, using: &rng)))
        }
    }
    let vocabulary = pointCount > 0
        ? try Vocabulary.train(descriptors: descriptors, parameters: .adaptive(descriptorCount: pointCount)) : nil
    let words = vocabulary?.words(for: descriptors) ?? []
    let points = MapPoints(positions: positions, descriptors: descriptors,
                           observationCounts: [UInt32](repeating: UInt32(observationsPerPoint), count: pointCount),
                           words: words, sections: sections)
    return try VPSMap(metadata: MapMetadata(name: "synthetic", created: Date(timeIntervalSince1970: 1_700_000_000),
                                            camera: camera, source: "test", builder: ["seed": "\(seed)"]),
                      scene: scene, keyframes: keyframes, points: points, observations: observations,
                      vocabulary: vocabulary)
}
