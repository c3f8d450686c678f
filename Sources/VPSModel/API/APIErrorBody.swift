/// The body of every failed HTTP API request: `{"error": {"code": "...", "message": "..."}}`.
///
/// `code` is a stable machine-readable word (`invalid_token`, `body_too_large`, ...);
/// `message` says in plain words what was wrong with this request.
public struct APIErrorBody: Sendable, Hashable, Codable {
    public struct Detail: Sendable, Hashable, Codable {
        public var code: String
        public var message: String
        public init(code: String, message: String) { self.code = code; self.message = message }
    }

    public var error: Detail

    public init(code: String, message: String) { error = Detail(code: code, message: message) }
}
