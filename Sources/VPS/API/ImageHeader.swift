/// The format and pixel size of an encoded image, read from its header without decoding it.
///
/// The HTTP service uses this to reject a body that is not a JPEG or PNG, or whose size
/// disagrees with the intrinsics, before spending time on a full decode.
public struct ImageHeader: Sendable, Hashable {
    public enum Format: String, Sendable, Hashable {
        case jpeg, png

        /// The MIME type of the format.
        public var mimeType: String { self == .jpeg ? "image/jpeg" : "image/png" }
    }

    public var format: Format
    public var width: Int
    public var height: Int

    public init(format: Format, width: Int, height: Int) {
        self.format = format; self.width = width; self.height = height
    }

    /// The format from the leading magic bytes alone, or nil when neither JPEG nor PNG.
    public static func sniffFormat<C: Collection<UInt8>>(_ bytes: C) -> Format? {
        let head = Array(bytes.prefix(8))
        if head.count >= 8, head == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] { return .png }
        if head.count >= 3, head[0] == 0xFF, head[1] == 0xD8, head[2] == 0xFF { return .jpeg }
        return nil
    }

    /// Parses the header of a JPEG (first SOFn segment) or PNG (IHDR chunk).
    /// Returns nil when the bytes are neither, or the header is truncated or malformed.
    public static func parse(_ bytes: [UInt8]) -> ImageHeader? {
        switch sniffFormat(bytes) {
        case .png: return parsePNG(bytes)
        case .jpeg: return parseJPEG(bytes)
        case nil: return nil
        }
    }

    private static func be32(_ b: [UInt8], _ i: Int) -> Int {
        Int(b[i]) << 24 | Int(b[i + 1]) << 16 | Int(b[i + 2]) << 8 | Int(b[i + 3])
    }

    private static func parsePNG(_ b: [UInt8]) -> ImageHeader? {
        // Signature (8), chunk length (4), "IHDR" (4), width (4), height (4).
        guard b.count >= 24, b[12] == 0x49, b[13] == 0x48, b[14] == 0x44, b[15] == 0x52 else { return nil }
        let w = be32(b, 16), h = be32(b, 20)
        guard w > 0, h > 0 else { return nil }
        return ImageHeader(format: .png, width: w, height: h)
    }

    private static func parseJPEG(_ b: [UInt8]) -> ImageHeader? {
        var i = 2
        while i + 3 < b.count {
            guard b[i] == 0xFF else { return nil }
            let marker = b[i + 1]
            if marker == 0xFF { i += 1; continue }                       // fill byte
            if marker == 0xD8 || marker == 0x01 || (0xD0...0xD7).contains(marker) { i += 2; continue }
            if marker == 0xD9 || marker == 0xDA { return nil }           // end or scan before a frame header
            let length = Int(b[i + 2]) << 8 | Int(b[i + 3])
            guard length >= 2 else { return nil }
            // SOF0...SOF15 except DHT (C4), JPG (C8) and DAC (CC) carry the frame size.
            if (0xC0...0xCF).contains(marker), marker != 0xC4, marker != 0xC8, marker != 0xCC {
                guard i + 8 < b.count, length >= 7 else { return nil }
                let h = Int(b[i + 5]) << 8 | Int(b[i + 6])
                let w = Int(b[i + 7]) << 8 | Int(b[i + 8])
                guard w > 0, h > 0 else { return nil }
                return ImageHeader(format: .jpeg, width: w, height: h)
            }
            i += 2 + length
        }
        return nil
    }
}
