import Foundation
import VPS

/// Supplies the encoded image of a recorded frame when the session sends it to the VPS.
/// Called off the main actor, once per VPS request (not per frame).
public protocol FrameImageSource: Sendable {
    func image(for frame: RecordedSession.Frame) throws -> EncodedImage
}

/// Reads frame images from a recorded session's folder (`<directory>/<frame.image>`); a
/// path that leaves the folder or is not a regular file is `frameUnavailable`.
public struct DirectoryFrameImages: FrameImageSource {
    public let directory: URL

    public init(directory: URL) { self.directory = directory }

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
