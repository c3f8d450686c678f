import Foundation
import VPS

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
        switch ImageHeader.sniffFormat(data) {
        case .jpeg?: self.init(format: .jpeg, data: data)
        case .png?: self.init(format: .png, data: data)
        case nil: return nil
        }
    }
}
