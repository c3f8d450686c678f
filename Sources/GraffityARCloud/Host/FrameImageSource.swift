import Foundation
import VPSModel

/// Supplies the encoded image of a recorded frame when the session sends it to the VPS.
/// Called off the main actor, once per VPS request (not per frame).
public protocol FrameImageSource: Sendable {
    func image(for frame: RecordedSession.Frame) throws -> EncodedImage
}

/// Reads frame images from a recorded session's folder (`<directory>/<frame.image>`); a
/// path that leaves the folder or is not a regular file is `frameUnavailable`.
public struct DirectoryFrameImages: FrameImageSource {
    /// The recorded session's folder.
    public let directory: URL

    /// Reads frames of the session stored in `directory`.
    public init(directory: URL) { self.directory = directory }

    /// The frame's image file, read and recognized as JPEG or PNG.
    /// - Throws: `ARCloudError.frameUnavailable` naming the frame and the reason.
    public func image(for frame: RecordedSession.Frame) throws -> EncodedImage {
        let url: URL
        do { url = try RecordedSession.imageURL(of: frame, in: directory) } catch {
            throw ARCloudError.frameUnavailable(frameId: frame.id, reason: "\(error)")
        }
        let data: Data
        do { data = try Data(contentsOf: url) } catch {
            throw ARCloudError.frameUnavailable(frameId: frame.id, reason: "cannot read \(url.path)")
        }
        guard let image = EncodedImage(data: data) else {
            throw ARCloudError.frameUnavailable(frameId: frame.id, reason: "\(url.path) is neither JPEG nor PNG")
        }
        return image
    }
}
