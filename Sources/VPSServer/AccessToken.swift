/// The form of arcloud bearer tokens: `arc_` followed by 32 random bytes in unpadded
/// base64url (43 characters). Only the SHA-256 of a token is ever stored.
public enum AccessToken {
    public static let prefix = "arc_"
    /// Length of a whole token: prefix plus 43 base64url characters.
    public static let length = 4 + 43

    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    /// A new token from the system's cryptographic random source (`getrandom` on Linux).
    public static func generate() -> String {
        var rng = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &rng) }
        return prefix + base64url(bytes)
    }

    /// Whether `token` has the shape of an arcloud token (says nothing about validity).
    public static func isWellFormed(_ token: String) -> Bool {
        let u = Array(token.utf8)
        guard u.count == length, token.hasPrefix(prefix) else { return false }
        return u.dropFirst(4).allSatisfy { alphabet.contains($0) }
    }

    /// The SHA-256 of the token's UTF-8 bytes: what the store keeps.
    public static func hash(_ token: String) -> [UInt8] { SHA256.hash(Array(token.utf8)) }

    /// A short, non-secret label for listings: the prefix and first 4 random characters.
    public static func hint(_ token: String) -> String { String(token.prefix(prefix.count + 4)) + "…" }

    static func base64url(_ bytes: [UInt8]) -> String {
        var out: [UInt8] = []
        var i = 0
        while i + 3 <= bytes.count {
            let n = UInt32(bytes[i]) << 16 | UInt32(bytes[i + 1]) << 8 | UInt32(bytes[i + 2])
            for shift in [18, 12, 6, 0] { out.append(alphabet[Int(n >> UInt32(shift) & 63)]) }
            i += 3
        }
        let rest = bytes.count - i
        if rest > 0 {
            let n = UInt32(bytes[i]) << 16 | (rest == 2 ? UInt32(bytes[i + 1]) << 8 : 0)
            out.append(alphabet[Int(n >> 18 & 63)])
            out.append(alphabet[Int(n >> 12 & 63)])
            if rest == 2 { out.append(alphabet[Int(n >> 6 & 63)]) }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
