/// An 8-bit RGB image, rows top to bottom, 3 bytes per pixel, no padding.
public struct RenderedImage: Sendable, Hashable {
    public let width: Int
    public let height: Int
    /// `width * height * 3` bytes, R G B per pixel.
    public var pixels: [UInt8]

    public init(width: Int, height: Int, pixels: [UInt8]) {
        precondition(width > 0 && height > 0 && pixels.count == width * height * 3, "RGB buffer size mismatch")
        self.width = width; self.height = height; self.pixels = pixels
    }

    /// The colour at column `x`, row `y`.
    public subscript(x: Int, y: Int) -> SIMD3<UInt8> {
        let i = (y * width + x) * 3
        return SIMD3(pixels[i], pixels[i + 1], pixels[i + 2])
    }

    /// Luma (Rec. 601) per pixel, row-major: what feature extraction sees.
    public var gray: [UInt8] {
        var out = [UInt8](repeating: 0, count: width * height)
        pixels.withUnsafeBufferPointer { p in
            for i in 0..<(width * height) {
                let y = 0.299 * Double(p[3 * i]) + 0.587 * Double(p[3 * i + 1]) + 0.114 * Double(p[3 * i + 2])
                out[i] = UInt8(min(255, max(0, y.rounded())))
            }
        }
        return out
    }
}

/// A failure reported by the VisionCore renderer or encoder.
public struct RenderError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The `vc_status` code.
    public let status: Int
    public let operation: String

    public init(status: Int, operation: String) { self.status = status; self.operation = operation }

    public var description: String {
        let reason = switch status {
        case 1: "invalid argument"
        case 2: "the data does not decode as an image"
        case 3: "image too large"
        case 5: "out of memory"
        default: "internal error"
        }
        return "\(operation) failed: \(reason) (status \(status))"
    }
}
