import VisionCore

/// An 8-bit grayscale image, row-major with no padding (`pixels.count == width * height`).
/// A value: copies share storage until written (copy-on-write).
public struct GrayImage: Sendable, Hashable {
    public let width: Int
    public let height: Int
    /// Row-major pixels, `width` bytes per row.
    public private(set) var pixels: [UInt8]

    /// Wraps existing pixels. Throws `.invalidArgument` unless `pixels.count == width * height`
    /// and both sizes are positive.
    public init(width: Int, height: Int, pixels: [UInt8]) throws(VisionError) {
        guard width > 0, height > 0, pixels.count == width * height else {
            throw VisionError(.invalidArgument,
                              "a \(width)x\(height) image needs \(max(0, width * height)) pixels, got \(pixels.count)")
        }
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// The default pixel budget for decoding: 40 megapixels.
    public static let defaultMaxPixels = Int(VC_DEFAULT_MAX_PIXELS)

    /// Decodes a JPEG or PNG held in memory to grayscale.
    ///
    /// The header is read first: an image of more than `maxPixels` pixels is refused with
    /// `.tooLarge` before anything is allocated for it. Empty input gives `.emptyInput`, other
    /// formats `.unsupportedFormat`, a cut file `.truncated`, a malformed one `.decodeFailed`.
    /// EXIF orientation is ignored: intrinsics describe the image as stored.
    /// - Parameter bytes: the encoded file; read during the call only, not retained.
    public init(decoding bytes: [UInt8], maxPixels: Int = GrayImage.defaultMaxPixels) throws(VisionError) {
        let info = try GrayImage.probe(bytes)
        let total = info.width * info.height
        guard total <= maxPixels else {
            throw VisionError(.tooLarge, "image is \(info.width)x\(info.height), more than \(maxPixels) pixels")
        }
        var status = VC_OK
        var decoded = vc_image_info()
        let pixels = bytes.withUnsafeBufferPointer { src in
            [UInt8](unsafeUninitializedCapacity: total) { buf, initialized in
                status = vc_image_decode_gray(src.baseAddress, src.count, Int64(maxPixels),
                                              buf.baseAddress, buf.count, &decoded)
                // On failure the buffer may be partly written; zero it so the array is valid.
                if status != VC_OK { buf.initialize(repeating: 0) }
                initialized = total
            }
        }
        try VisionError.check(status)
        self.width = Int(decoded.width)
        self.height = Int(decoded.height)
        self.pixels = pixels
    }

    /// The size and format from an encoded image's header, after checking the file is
    /// complete. Errors as `init(decoding:)`, except that no size limit applies.
    public static func probe(_ bytes: [UInt8]) throws(VisionError) -> ImageInfo {
        var info = vc_image_info()
        let status = bytes.withUnsafeBufferPointer { vc_image_probe($0.baseAddress, $0.count, &info) }
        try VisionError.check(status)
        return ImageInfo(width: Int(info.width), height: Int(info.height),
                         format: info.format == Int32(VC_IMAGE_FORMAT_JPEG.rawValue) ? .jpeg : .png)
    }

    /// The pixel at column `x`, row `y`.
    public subscript(x: Int, y: Int) -> UInt8 { pixels[y * width + x] }
}

/// What an encoded image's header says.
public struct ImageInfo: Sendable, Hashable {
    public enum Format: Sendable, Hashable { case jpeg, png }
    public let width: Int
    public let height: Int
    public let format: Format

    public init(width: Int, height: Int, format: Format) {
        self.width = width; self.height = height; self.format = format
    }
}
