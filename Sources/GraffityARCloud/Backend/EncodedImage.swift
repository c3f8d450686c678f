import Foundation
import VPSModel

/// A camera frame as encoded bytes (JPEG or PNG), the form both backends take.
public struct EncodedImage: Sendable, Hashable {
    /// The encodings the VPS accepts.
    public enum Format: String, Sendable, Hashable {
        case jpeg, png
    }

    /// How `data` is encoded.
    public var format: Format
    /// The encoded bytes.
    public var data: Data

    /// An image of a known format (not checked against the bytes).
    public init(format: Format, data: Data) {
        self.format = format; self.data = data
    }

    /// Recognizes the format from the leading magic bytes; nil when neither JPEG nor PNG.
    public init?(data: Data) {
        switch ImageHeader.sniffFormat(data) {
        case .jpeg?: self.init(format: .jpeg, data: data)
        case .png?: self.init(format: .png, data: data)
        case nil: return nil
        }
    }
}
