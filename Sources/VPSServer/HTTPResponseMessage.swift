import Foundation

/// A response to queue on the connection.
struct HTTPResponseMessage {
    var status: Int
    var headers: [(String, String)]
    var body: [UInt8]

    init(status: Int, contentType: String, body: [UInt8], headers: [(String, String)] = []) {
        self.status = status
        self.headers = [("Content-Type", contentType), ("Cache-Control", "no-store")] + headers
        self.body = body
    }

    private static let encoder: JSONEncoder = {
        let e = JSONEncoder()
        e.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return e
    }()

    /// A JSON response; encoding failures (not expected for our value types) become a 500.
    static func json<T: Encodable>(_ value: T, status: Int = 200) -> HTTPResponseMessage {
        if let data = try? encoder.encode(value) {
            return HTTPResponseMessage(status: status, contentType: "application/json", body: Array(data))
        }
        let fallback = #"{"error":{"code":"internal","message":"response encoding failed"}}"#
        return HTTPResponseMessage(status: 500, contentType: "application/json", body: Array(fallback.utf8))
    }

    static func text(_ s: String, contentType: String = "text/plain; charset=utf-8") -> HTTPResponseMessage {
        HTTPResponseMessage(status: 200, contentType: contentType, body: Array(s.utf8))
    }
}
