import Foundation
import Formats
import Localization
import Storage
import VPSModel
import Vision

extension FuzzTarget {
    /// The image readers: VPS's header reader (`ImageHeader`, what the server checks
    /// against the intrinsics), and VisionCore's probe and decoder through `GrayImage`.
    static let image = FuzzTarget(name: "image", summary: "JPEG/PNG header reader, probe and decoder") { bytes in
        let header = ImageHeader.parse(Data(bytes))
        let probed = try? GrayImage.probe(bytes)
        // 4 megapixels keeps one input's cost small; larger sizes are refused before decoding.
        guard let image = try? GrayImage(decoding: bytes, maxPixels: 4_000_000) else { return }
        precondition(image.width > 0 && image.height > 0, "decoded an image of no pixels")
        precondition(image.pixels.count == image.width * image.height, "pixel count disagrees with the size")
        precondition(probed.map { $0.width == image.width && $0.height == image.height } ?? false,
                     "the decoder accepted an image the probe refused or sized differently")
        if let header {
            precondition(header.width == image.width && header.height == image.height,
                         "ImageHeader says \(header.width)x\(header.height), the decoder \(image.width)x\(image.height)")
        }
    }
}
