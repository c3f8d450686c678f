import Foundation
import Vision
import VPSModel

/// Where the map builder gets each keyframe's pixels: decoded, one keyframe at a time, on
/// the builder's worker threads, so that a venue's thousands of photos are never all in
/// memory at once. The builder itself reads no file.
public protocol KeyframeImages: Sendable {
    /// The gray image of `frame`. A size other than the frame's intrinsics' is refused by
    /// the builder. Errors should name the image.
    func image(of frame: MapBuildFrame) throws -> GrayImage
}

/// Each frame's image file (`MapBuildFrame.imageURL`), decoded (PNG or JPEG).
public struct KeyframeImageFiles: KeyframeImages {
    public init() {}

    public func image(of frame: MapBuildFrame) throws -> GrayImage {
        let bytes: [UInt8]
        do { bytes = [UInt8](try Data(contentsOf: frame.imageURL)) } catch {
            throw MapBuildError("\(frame.imageURL.path): cannot read the image (\(error.localizedDescription))")
        }
        do { return try GrayImage(decoding: bytes) } catch {
            throw MapBuildError("\(frame.imageURL.path): \(error)")
        }
    }
}
