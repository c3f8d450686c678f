import Foundation
import VisionCore

/// JPEG and PNG encoding (VisionCore over libjpeg/libpng). Deterministic bytes.
public enum ImageEncoding {
    /// JPEG with `quality` 1…100 (optimised Huffman tables, 4:2:0 chroma).
    public static func jpeg(_ image: RenderedImage, quality: Int = 90) throws -> Data {
        try encode(image.pixels, width: image.width, height: image.height, channels: 3, operation: "jpeg encode") {
            vc_encode_jpeg($0, $1, $2, $3, $4, Int32(clamping: quality), $5, $6)
        }
    }

    /// Lossless PNG with zlib `compression` 0…9.
    public static func png(_ image: RenderedImage, compression: Int = 6) throws -> Data {
        try encode(image.pixels, width: image.width, height: image.height, channels: 3, operation: "png encode") {
            vc_encode_png($0, $1, $2, $3, $4, Int32(clamping: compression), $5, $6)
        }
    }

    /// JPEG of an 8-bit gray image (`width * height` bytes, row-major).
    public static func jpeg(gray: [UInt8], width: Int, height: Int, quality: Int = 90) throws -> Data {
        try encode(gray, width: width, height: height, channels: 1, operation: "jpeg encode") {
            vc_encode_jpeg($0, $1, $2, $3, $4, Int32(clamping: quality), $5, $6)
        }
    }

    /// Lossless PNG of an 8-bit gray image (`width * height` bytes, row-major).
    public static func png(gray: [UInt8], width: Int, height: Int, compression: Int = 6) throws -> Data {
        try encode(gray, width: width, height: height, channels: 1, operation: "png encode") {
            vc_encode_png($0, $1, $2, $3, $4, Int32(clamping: compression), $5, $6)
        }
    }

    private typealias Encoder = (UnsafePointer<UInt8>?, Int32, Int32, Int32, Int32,
                                 UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>,
                                 UnsafeMutablePointer<Int>) -> vc_status

    private static func encode(_ pixels: [UInt8], width: Int, height: Int, channels: Int, operation: String,
                               _ call: Encoder) throws -> Data {
        guard width > 0, height > 0, pixels.count == width * height * channels else {
            throw RenderError(status: 1, operation: operation)
        }
        var out: UnsafeMutablePointer<UInt8>?
        var length = 0
        let status = pixels.withUnsafeBufferPointer {
            call($0.baseAddress, Int32(width), Int32(height), Int32(width * channels), Int32(channels), &out, &length)
        }
        guard status == VC_OK, let out else { throw RenderError(status: Int(status.rawValue), operation: operation) }
        defer { vc_encoded_free(out) }
        return Data(bytes: out, count: length)
    }
}
