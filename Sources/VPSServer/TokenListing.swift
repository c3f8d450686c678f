import Foundation

/// Issued tokens as `arcloud token list` shows them (never the tokens themselves): a
/// table, or one JSON object per token; times in ISO 8601, UTC.
public enum TokenListing {
    /// The table's column names, aligned with `row`.
    public static let header = "ID  STATUS   NAME                 HINT        CREATED               EXPIRES               MAPS"

    /// One token: id, status at `now`, name, hint, created, expires (or never), maps (or all).
    public static func row(_ r: TokenRecord, at now: Date) -> String {
        func pad(_ s: String, _ n: Int) -> String { s.padding(toLength: max(n, s.count), withPad: " ", startingAt: 0) }
        return [pad(String(r.id), 3), pad(r.status(at: now), 8), pad(r.name, 20), pad(r.hint, 11),
                pad(format(r.createdAt), 21), pad(r.expiresAt.map(format) ?? "never", 21),
                r.maps?.joined(separator: ",") ?? "all"].joined(separator: " ")
    }

    /// One token as a JSON object with sorted keys: id, name, hint, status at `now`,
    /// created, and expires, maps and revoked when set.
    public static func json(_ r: TokenRecord, at now: Date) throws -> String {
        var o: [String: Any] = ["id": r.id, "name": r.name, "hint": r.hint, "status": r.status(at: now),
                                "created": format(r.createdAt)]
        if let e = r.expiresAt { o["expires"] = format(e) }
        if let m = r.maps { o["maps"] = m }
        if let v = r.revokedAt { o["revoked"] = format(v) }
        return String(decoding: try JSONSerialization.data(withJSONObject: o, options: [.sortedKeys]), as: UTF8.self)
    }

    /// `2026-12-05T06:06:30Z`.
    public static func format(_ d: Date) -> String { Date.ISO8601FormatStyle().format(d) }
}
