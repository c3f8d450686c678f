import Foundation

/// One issued token as a store lists it (never the token itself).
public struct TokenRecord: Sendable, Hashable {
    public var id: Int64
    public var name: String
    /// `arc_AbCd…`: enough to recognise a token, not to use it.
    public var hint: String
    public var createdAt: Date
    public var expiresAt: Date?
    /// Maps the token may use; nil for all.
    public var maps: [String]?
    public var revokedAt: Date?

    public init(id: Int64, name: String, hint: String, createdAt: Date, expiresAt: Date? = nil,
                maps: [String]? = nil, revokedAt: Date? = nil) {
        self.id = id; self.name = name; self.hint = hint; self.createdAt = createdAt
        self.expiresAt = expiresAt; self.maps = maps; self.revokedAt = revokedAt
    }

    /// `active`, `expired` or `revoked` at `now`.
    public func status(at now: Date = Date()) -> String {
        if revokedAt != nil { return "revoked" }
        if let e = expiresAt, e <= now { return "expired" }
        return "active"
    }

    /// How stores keep the map list: comma-joined ids (map ids never contain commas).
    static func joinMaps(_ maps: [String]?) -> String? { maps.map { $0.joined(separator: ",") } }
    static func splitMaps(_ text: String?) -> [String]? { text.map { $0.split(separator: ",").map(String.init) } }
}

/// Token lifetimes as typed on the command line.
public enum TokenLifetime {
    /// Parses a lifetime such as `90s`, `30m`, `24h`, `7d` or `2w` into seconds; nil when
    /// it is not a positive whole number followed by one of those units.
    public static func parse(_ text: String) -> TimeInterval? {
        let units: [Character: Double] = ["s": 1, "m": 60, "h": 3600, "d": 86400, "w": 604800]
        guard let unit = text.last, let scale = units[unit], let n = Int(text.dropLast()), n > 0 else { return nil }
        return Double(n) * scale
    }
}
