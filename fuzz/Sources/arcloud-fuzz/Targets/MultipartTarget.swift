import VPSServer

extension FuzzTarget {
    /// The server's `multipart/form-data` parser. Input: a Content-Type value, a newline,
    /// then the request body.
    static let multipart = FuzzTarget(name: "multipart", summary: "Content-Type line, then a multipart/form-data body") { bytes in
        let newline = bytes.firstIndex(of: 10) ?? bytes.endIndex
        let contentType = String(decoding: bytes[..<newline], as: UTF8.self)
        let body = newline < bytes.endIndex ? Array(bytes[(newline + 1)...]) : []
        guard let boundary = try? MultipartFormData.boundary(contentType: contentType),
              let parts = try? MultipartFormData.parse(body, boundary: boundary) else { return }
        precondition(parts.count <= 16, "more parts than the limit")
        precondition(parts.map(\.body.count).reduce(0, +) <= body.count, "parts hold more bytes than the body")
    }
}
