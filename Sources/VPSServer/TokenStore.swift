import Foundation
import Synchronization
import VPS

/// Bearer tokens in an SQLite file, kept as SHA-256 hashes: the clear token is shown once
/// by `create` and never stored. `arcloud token create|list|revoke` and `arcloud serve`
/// open the same file; the server reads it on every request, so a revocation takes effect
/// at once without a restart.
///
/// Lookup is by hash; the stored and computed hashes are then compared in constant time.
/// (An index lookup on a hash reveals nothing useful about the token through timing: an
/// attacker cannot steer the hash of what they send.)
public final class TokenStore: BearerTokenVerifier {
    /// One issued token as listed (never the token itself).
    public struct Record: Sendable, Hashable {
        public var id: Int64
        public var name: String
        /// `arc_AbCd…`: enough to recognise a token, not to use it.
        public var hint: String
        public var createdAt: Date
        public var expiresAt: Date?
        /// Maps the token may use; nil for all.
        public var maps: [String]?
        public var revokedAt: Date?

        /// `active`, `expired` or `revoked` at `now`.
        public func status(at now: Date = Date()) -> String {
            if revokedAt != nil { return "revoked" }
            if let e = expiresAt, e <= now { return "expired" }
            return "active"
        }
    }

    static let schemaVersion = 1
    private let db: Mutex<SQLiteDatabase>
    public let path: String

    /// Opens the token file, creating it (and its table) when missing.
    public init(path: String) throws {
        self.path = path
        let database = try SQLiteDatabase(path: path, mode: .create)
        // WAL: the server keeps reading while the CLI writes to the same file.
        if path != ":memory:" { try database.execute("PRAGMA journal_mode = WAL") }
        let version = try database.userVersion()
        if version > Self.schemaVersion {
            throw SQLiteError(code: 1, message: "token file schema \(version) is newer than this build (\(Self.schemaVersion))", path: path)
        }
        try database.execute("""
            CREATE TABLE IF NOT EXISTS tokens (
                id INTEGER PRIMARY KEY,
                name TEXT NOT NULL,
                hash BLOB NOT NULL UNIQUE,
                hint TEXT NOT NULL,
                created_at REAL NOT NULL,
                expires_at REAL,
                maps TEXT,
                revoked_at REAL
            )
            """)
        try database.setUserVersion(Self.schemaVersion)
        db = Mutex(database)
    }

    /// Issues a new token. Returns the clear token (show it once) and its record.
    /// - Parameters:
    ///   - lifetime: seconds until it expires; nil never expires.
    ///   - maps: map ids it may use; nil for all maps.
    public func create(name: String, lifetime: TimeInterval? = nil, maps: [String]? = nil,
                       now: Date = Date()) throws -> (token: String, record: Record) {
        let token = AccessToken.generate()
        let expires = lifetime.map { now.addingTimeInterval($0) }
        let mapsText = maps.map { $0.joined(separator: ",") }
        let id = try db.withLock { db -> Int64 in
            try db.run("INSERT INTO tokens (name, hash, hint, created_at, expires_at, maps) VALUES (?, ?, ?, ?, ?, ?)",
                       [.text(name), .blob(AccessToken.hash(token)), .text(AccessToken.hint(token)),
                        .real(now.timeIntervalSince1970), SQLiteValue(expires?.timeIntervalSince1970), SQLiteValue(mapsText)])
            return db.lastInsertRowID
        }
        return (token, Record(id: id, name: name, hint: AccessToken.hint(token), createdAt: now,
                              expiresAt: expires, maps: maps, revokedAt: nil))
    }

    /// Every token issued, oldest first.
    public func list() throws -> [Record] {
        try db.withLock { db in
            var out: [Record] = []
            try db.forEachRow("SELECT id, name, hint, created_at, expires_at, maps, revoked_at FROM tokens ORDER BY id") { s in
                out.append(Self.record(s))
            }
            return out
        }
    }

    /// Revokes the token with this id; false when there is none or it was already revoked.
    @discardableResult
    public func revoke(id: Int64, now: Date = Date()) throws -> Bool {
        try db.withLock { db in
            try db.run("UPDATE tokens SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL",
                       [.real(now.timeIntervalSince1970), .integer(id)]) > 0
        }
    }

    /// Revokes every unrevoked token with this name; returns how many.
    @discardableResult
    public func revoke(name: String, now: Date = Date()) throws -> Int {
        try db.withLock { db in
            try db.run("UPDATE tokens SET revoked_at = ? WHERE name = ? AND revoked_at IS NULL",
                       [.real(now.timeIntervalSince1970), .text(name)])
        }
    }

    public func verify(token: String, now: Date) -> TokenVerification {
        guard AccessToken.isWellFormed(token) else { return .malformed }
        let presented = AccessToken.hash(token)
        let found: (hash: [UInt8], record: Record)?
        do {
            found = try db.withLock { db -> ([UInt8], Record)? in
                let s = try db.prepare("SELECT id, name, hint, created_at, expires_at, maps, revoked_at, hash FROM tokens WHERE hash = ?")
                try s.bind([.blob(presented)])
                defer { s.reset() }
                guard try s.step() else { return nil }
                return (s.blob(7), Self.record(s))
            }
        } catch {
            return .unavailable("token store: \(error)")
        }
        guard let found, constantTimeEquals(found.hash, presented) else { return .unknown }
        if found.record.revokedAt != nil { return .revoked }
        if let e = found.record.expiresAt, e <= now { return .expired }
        return .valid(TokenGrant(name: found.record.name, maps: found.record.maps.map(Set.init)))
    }

    private static func record(_ s: SQLiteStatement) -> Record {
        Record(id: s.int64(0), name: s.text(1) ?? "", hint: s.text(2) ?? "",
               createdAt: Date(timeIntervalSince1970: s.double(3)),
               expiresAt: s.isNull(4) ? nil : Date(timeIntervalSince1970: s.double(4)),
               maps: s.isNull(5) ? nil : (s.text(5) ?? "").split(separator: ",").map(String.init),
               revokedAt: s.isNull(6) ? nil : Date(timeIntervalSince1970: s.double(6)))
    }

    /// Parses a lifetime such as `90s`, `30m`, `24h`, `7d` or `2w` into seconds; nil when
    /// it is not a positive whole number followed by one of those units.
    public static func parseLifetime(_ text: String) -> TimeInterval? {
        let units: [Character: Double] = ["s": 1, "m": 60, "h": 3600, "d": 86400, "w": 604800]
        guard let unit = text.last, let scale = units[unit], let n = Int(text.dropLast()), n > 0 else { return nil }
        return Double(n) * scale
    }
}
