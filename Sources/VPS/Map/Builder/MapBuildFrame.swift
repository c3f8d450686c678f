import Foundation
import Geometry

/// One posed image the builder turns into a keyframe.
public struct MapBuildFrame: Sendable, Hashable {
    public var name: String
    public var timestamp: Double
    /// `T_map_camera`, known (ground truth or a reconstruction's).
    public var pose: Pose
    public var intrinsics: CameraIntrinsics
    public var imageURL: URL

    public init(name: String, timestamp: Double, pose: Pose, intrinsics: CameraIntrinsics, imageURL: URL) {
        self.name = name; self.timestamp = timestamp; self.pose = pose
        self.intrinsics = intrinsics; self.imageURL = imageURL
    }

    /// The frames of a recorded session that have a ground-truth pose.
    /// Throws `ContainedPathError` for an image path that leaves `directory` or is not a regular file.
    public static func frames(of session: RecordedSession, in directory: URL) throws -> [MapBuildFrame] {
        try session.frames.compactMap { f in
            guard let pose = f.pose else { return nil }
            return MapBuildFrame(name: f.id, timestamp: f.timestamp, pose: pose, intrinsics: session.camera,
                                 imageURL: try RecordedSession.imageURL(of: f, in: directory))
        }
    }

    /// The registered images of a COLMAP model, with their files in `images`. Throws for
    /// a camera arcloud cannot express and for an image name that leaves `images` or
    /// names no regular file (the error names the model file and the image).
    public static func frames(of model: COLMAPModel, images: URL) throws -> [MapBuildFrame] {
        try model.images.enumerated().map { i, im in
            MapBuildFrame(name: im.name, timestamp: Double(i), pose: im.pose, intrinsics: try model.intrinsics(of: im),
                          imageURL: try im.file(in: images))
        }
    }
}

extension MapBuildFrame {
    /// The frames of a nerfstudio capture, each with its own intrinsics, in file order.
    public static func frames(of transforms: NerfstudioTransforms) -> [MapBuildFrame] {
        transforms.frames.enumerated().map { i, f in
            MapBuildFrame(name: f.fileName, timestamp: Double(i), pose: f.pose, intrinsics: f.intrinsics, imageURL: f.imageURL)
        }
    }
}

/// Why a map could not be built.
public struct MapBuildError: Error, Sendable, Hashable, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
