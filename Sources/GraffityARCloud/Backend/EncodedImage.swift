import Foundation

/// A camera frame as encoded bytes (JPEG or PNG), the form both backends take.
public struct EncodedImage: Sendable, Hashable {
    public enum Format: String, Sendable, Hashable {
        case jpeg, png
    }

    public var format: Format
    public var data: Data

    public init(format: Format, data: Data) {
        self.format = format; self.data = data
    }

    /// Recognizes the format from the leading magic bytes; nil when neither JPEG nor PNG.
    public init?(data: Data) {
        guard let format = Self.sniff(data) else { return nil }
        self.init(format: format, data: data)
    }

    static func sniff(_ data: Data) -> Format? {
        let head = [UInt8](data.prefix(8))
        if head == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] { return .png }
        if head.count >= 3, head[0] == 0xFF, head[1] == 0xD8, head[2] == 0xFF { return .jpeg }
        return nil
    }
}
