extension ImageHeader {
    /// The format from the leading magic bytes alone, or nil when neither JPEG nor PNG.
    public static func sniffFormat<C: Collection<UInt8>>(_ bytes: C) -> Format? {
        let head = Array(bytes.prefix(8))
        if head == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] { return .png }
        if head.count >= 3, head[0] == 0xFF, head[1] == 0xD8, head[2] == 0xFF { return .jpeg }
        return nil
    }
}

extension ImageHeader.Format {
    /// The MIME type of the format (`image/jpeg`, `image/png`).
    public var mimeType: String { self == .jpeg ? "image/jpeg" : "image/png" }
}
