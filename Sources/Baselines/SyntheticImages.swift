import BaselineCore
import Support
import Vision
import VisionCore

/// Synthetic images and encodings for tests and benchmarks (not used by localization).
public enum SyntheticImages {
    /// A deterministic textured scene for `seed`: overlapping shapes of many grey levels
    /// and sensor-like noise, so corners appear all over the image.
    public static func texture(width: Int, height: Int, seed: UInt64 = 1) throws(VisionError) -> GrayImage {
        guard width > 0, height > 0 else { throw VisionError(.invalidArgument, "size must be positive") }
        var status = VC_OK
        let px = [UInt8](unsafeUninitializedCapacity: width * height) { buf, n in
            buf.initialize(repeating: 0)
            n = width * height
            status = vc_test_texture(buf.baseAddress, Int32(width), Int32(height), seed)
        }
        try VisionError.check(status)
        return try GrayImage(width: width, height: height, pixels: px)
    }

    /// Encodes `image` as JPEG (with `quality` 1...100) or PNG.
    public static func encode(_ image: GrayImage, as format: ImageInfo.Format, quality: Int = 90) throws(VisionError) -> [UInt8] {
        let f = Int32(format == .jpeg ? VC_IMAGE_FORMAT_JPEG.rawValue : VC_IMAGE_FORMAT_PNG.rawValue)
        var length = 0
        // First call sizes the output; the second writes it.
        var status = image.pixels.withUnsafeBufferPointer {
            vc_test_encode($0.baseAddress, Int32(image.width), Int32(image.height), f, Int32(quality), nil, 0, &length)
        }
        guard status == VC_ERR_BUFFER_TOO_SMALL || status == VC_OK else { throw VisionError.from(status) }
        let needed = length
        let out = [UInt8](unsafeUninitializedCapacity: needed) { buf, n in
            status = image.pixels.withUnsafeBufferPointer {
                vc_test_encode($0.baseAddress, Int32(image.width), Int32(image.height), f, Int32(quality),
                               buf.baseAddress, buf.count, &length)
            }
            if status != VC_OK { buf.initialize(repeating: 0) }
            n = needed
        }
        try VisionError.check(status)
        return out
    }
}
