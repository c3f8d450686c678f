import Foundation
import VPSModel

/// Map build frames from other tools' reconstructions.
extension MapBuildFrame {
    /// The registered images of a COLMAP model, with their files in `images` and their
    /// photos' EXIF GPS as readings (`EXIFGPS.photoReading(at:)`). Throws for
    /// a camera arcloud cannot express and for an image name that leaves `images` or
    /// names no regular file (the error names the model file and the image).
    public static func frames(of model: COLMAPModel, images: URL) throws -> [MapBuildFrame] {
        try model.images.enumerated().map { i, im in
            let file = try im.file(in: images)
            return MapBuildFrame(name: im.name, timestamp: Double(i), pose: im.pose, intrinsics: try model.intrinsics(of: im),
                                 imageURL: file, gps: EXIFGPS.photoReading(at: file))
        }
    }

    /// The frames of a nerfstudio capture, each with its own intrinsics and its photo's
    /// EXIF GPS as a reading, in file order.
    public static func frames(of transforms: NerfstudioTransforms) -> [MapBuildFrame] {
        transforms.frames.enumerated().map { i, f in
            MapBuildFrame(name: f.fileName, timestamp: Double(i), pose: f.pose, intrinsics: f.intrinsics, imageURL: f.imageURL,
                          gps: EXIFGPS.photoReading(at: f.imageURL))
        }
    }
}
