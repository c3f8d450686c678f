import Foundation

/// The pixel size stored in a JPEG or PNG header, read without decoding the image.
public struct ImageHeader: Sendable, Hashable {
    public enum Format: String, Sendable { case jpeg, png }

    public var format: Format
    public var width: Int
    public var height: Int

    public init(format: Format, width: Int, height: Int) {
        self.format = format; self.width = width; self.height = height
    }

    /// Reads the header of the file at `url`; nil if it is not a JPEG or PNG with a size.
    public static func read(_ url: URL) -> ImageHeader? {
        guard let handle = try? FileHandle(forReadingFrom: url) else { return nil }
        defer { try? handle.close() }
        // Headers sit near the start; EXIF blocks can push a JPEG's SOF past 64 KB, so
        // read on demand instead of the whole file.
        guard let data = try? handle.read(upToCount: 256 * 1024) else { return nil }
        return parse(data)
    }

    /// Parses a JPEG (SOF marker) or PNG (IHDR chunk) header from the leading bytes.
    /// A JPEG with a second frame header before its scan is refused (nil), as the decoder
    /// refuses it; the bytes may end before the scan (only the start of a file was read).
    public static func parse(_ data: Data) -> ImageHeader? {
        parse([UInt8](data))
    }

    /// `parse(_:)` on bytes already in an array (no copy).
    public static func parse(_ b: [UInt8]) -> ImageHeader? {
        if b.count >= 24, b[0] == 0x89, b[1] == 0x50, b[2] == 0x4E, b[3] == 0x47,
           b[12] == 0x49, b[13] == 0x48, b[14] == 0x44, b[15] == 0x52 {
            let w = Int(b[16]) << 24 | Int(b[17]) << 16 | Int(b[18]) << 8 | Int(b[19])
            let h = Int(b[20]) << 24 | Int(b[21]) << 16 | Int(b[22]) << 8 | Int(b[23])
            return ImageHeader(format: .png, width: w, height: h)
        }
        guard b.count >= 4, b[0] == 0xFF, b[1] == 0xD8 else { return nil }
        var frame: ImageHeader?
        var i = 2
        while i + 3 < b.count {
            guard b[i] == 0xFF else { return nil }
            let marker = b[i + 1]
            if marker == 0xFF { i += 1; continue }            // fill byte
            if marker == 0xD8 || (0xD0...0xD7).contains(marker) || marker == 0x01 { i += 2; continue }
            let length = Int(b[i + 2]) << 8 | Int(b[i + 3])
            // SOF0…SOF15 except DHT (C4), JPG (C8) and DAC (CC) carry the frame size.
            if (0xC0...0xCF).contains(marker), marker != 0xC4, marker != 0xC8, marker != 0xCC {
                guard frame == nil, i + 8 < b.count else { return nil }
                let h = Int(b[i + 5]) << 8 | Int(b[i + 6])
                let w = Int(b[i + 7]) << 8 | Int(b[i + 8])
                frame = ImageHeader(format: .jpeg, width: w, height: h)
            }
            if marker == 0xDA || marker == 0xD9 { return frame }  // the scan (or the end) follows
            i += 2 + length
        }
        return frame
    }
}
