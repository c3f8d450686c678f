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

    /// Encodes `image` as JPEG (with `quality` 1...100) or PNG (zlib level 1, quick).
    public static func encode(_ image: GrayImage, as format: ImageInfo.Format, quality: Int = 90) throws -> [UInt8] {
        let (w, h) = (image.width, image.height)
        return [UInt8](format == .jpeg ? try ImageEncoding.jpeg(gray: image.pixels, width: w, height: h, quality: quality)
                                       : try ImageEncoding.png(gray: image.pixels, width: w, height: h, compression: 1))
    }
}
