import Foundation
import Geometry
import GraffityARCloud
import Baselines
import MapModel
import VPSModel
import Vision
import Storage

/// A small real map made without the map builder: a textured wall 4 m in front of a camera
/// at the origin. Every ORB feature of the image is back-projected onto the wall, so the
/// map's points are exact, and the image itself (as JPEG) localizes at the origin.
struct PlanarMap {
    static let camera = CameraIntrinsics(width: 640, height: 480, fx: 500, fy: 500, cx: 319.5, cy: 239.5)
    static let wallDistance = 4.0

    let url: URL
    let jpeg: Data
    let scene: SceneContent

    init(scene: SceneContent = SceneContent(sections: [MapSection(id: "hall", name: "Hall")])) throws {
        let image = try SyntheticImages.texture(width: Self.camera.width, height: Self.camera.height, seed: 11)
        jpeg = Data(try SyntheticImages.encode(image, as: .jpeg, quality: 95))
        let features = try ORBExtractor(options: ORBOptions(featureCount: 1500)).extract(image)
        let k = Self.camera
        var positions: [Double] = []
        for p in features.keypoints {
            positions += [(Double(p.x) - k.cx) / k.fx * Self.wallDistance,
                          (Double(p.y) - k.cy) / k.fy * Self.wallDistance, Self.wallDistance]
        }
        let n = features.count
        let vocabulary = try Vocabulary.train(descriptors: features.descriptors,
                                              parameters: .init(branching: 8, levels: 3, iterations: 5))
        let points = MapPoints(positions: positions, descriptors: features.descriptors,
                               observationCounts: [UInt32](repeating: 1, count: n),
                               words: vocabulary.words(for: features.descriptors),
                               sections: [Int32](repeating: scene.sections.isEmpty ? -1 : 0, count: n))
        let keyframe = MapKeyframe(name: "kf0", timestamp: 0, pose: .identity, intrinsics: k,
                                   section: scene.sections.isEmpty ? nil : 0)
        let observations = features.keypoints.enumerated().map { i, p in
            MapObservation(point: UInt32(i), keyframe: 0, pixel: SIMD2(p.x, p.y), octave: UInt8(p.octave))
        }
        let map = try VPSMap(metadata: MapMetadata(name: "gallery", created: Date(timeIntervalSince1970: 0)),
                             scene: scene, keyframes: [keyframe], points: points, observations: observations,
                             vocabulary: vocabulary)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sdk-planar-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        url = directory.appendingPathComponent("gallery.vpsmap")
        try map.write(to: url.path)
        self.scene = scene
    }

    /// Frame images: the wall image for every frame.
    var images: some FrameImageSource { FixedImage(data: jpeg) }
}

/// Every frame shows the same encoded image.
struct FixedImage: FrameImageSource {
    let data: Data
    func image(for frame: RecordedSession.Frame) throws -> EncodedImage {
        guard let image = EncodedImage(data: data) else {
            throw ARCloudError.frameUnavailable(frameId: frame.id, reason: "not an image")
        }
        return image
    }
}
