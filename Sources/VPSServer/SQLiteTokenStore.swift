import Foundation
import Storage
import Support

/// Bearer tokens in an SQLite file: the embedded default for one machine.
/// `arcloud token create|list|revoke` and `arcloud serve` open the same file (WAL: the
/// server keeps reading while the CLI writes). WAL does not work on a network share:
/// replicas on several machines share a `PostgreSQLTokenStore` instead.
public final class SQLiteTokenStore: TokenStore {
    static let schemaVersion = 1
    /// The connection and the token lookup every request runs, prepared once: SQLite's
    /// parser was a seventh of a connection thread's time per request when it was
    /// prepared per call. A prepared statement still reads the latest committed rows at
    /// each run, so a revocation applies at once as before.
    private struct Connection {
        let db: SQLiteDatabase
        let lookup: SQLiteStatement
    }
    private let connection: Locked<Connection>
    public let path: String
    public var location: String { path }

    /// Opens the token file, creating it (and its table) when missing.
    public init(path: String) throws {
        self.path = path
        let database = try SQLiteDatabase(path: path, mode: .create)
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
        connection = Locked(Connection(db: database, lookup: try database.prepare(
            "SELECT id, name, hint, created_at, expires_at, maps, revoked_at, hash FROM tokens WHERE hash = ?")))
    }

    public func insert(name: String, hash: [UInt8], hint: String, createdAt: Date, expiresAt: Date?,
                       maps: [String]?) throws -> Int64 {
        try connection.withLock { c -> Int64 in
            let db = c.db
            try db.run("INSERT INTO tokens (name, hash, hint, created_at, expires_at, maps) VALUES (?, ?, ?, ?, ?, ?)",
                       [.text(name), .blob(hash), .text(hint), .real(createdAt.timeIntervalSince1970),
                        SQLiteValue(expiresAt?.timeIntervalSince1970), SQLiteValue(TokenRecord.joinMaps(maps))])
            return db.lastInsertRowID
        }
    }

    public func lookup(hash: [UInt8]) throws -> (storedHash: [UInt8], record: TokenRecord)? {
        try connection.withLock { c -> ([UInt8], TokenRecord)? in
            let s = c.lookup
            try s.bind([.blob(hash)])
            defer { s.reset() }
            guard try s.step() else { return nil }
            return (s.blob(7), Self.record(s))
        }
    }

    public func list() throws -> [TokenRecord] {
        try connection.withLock { c in
            let db = c.db
            var out: [TokenRecord] = []
            try db.forEachRow("SELECT id, name, hint, created_at, expires_at, maps, revoked_at FROM tokens ORDER BY id") { s in
                out.append(Self.record(s))
            }
            return out
        }
    }

    public func revoke(id: Int64, now: Date) throws -> Bool {
        try connection.withLock { c in
            try c.db.run("UPDATE tokens SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL",
                       [.real(now.timeIntervalSince1970), .integer(id)]) > 0
        }
    }

    public func revoke(name: String, now: Date) throws -> Int {
        try connection.withLock { c in
            try c.db.run("UPDATE tokens SET revoked_at = ? WHERE name = ? AND revoked_at IS NULL",
                       [.real(now.timeIntervalSince1970), .text(name)])
        }
    }

    private static func record(_ s: SQLiteStatement) -> TokenRecord {
        TokenRecord(id: s.int64(0), name: s.text(1) ?? "", hint: s.text(2) ?? "",
                    createdAt: Date(timeIntervalSince1970: s.double(3)),
                    expiresAt: s.isNull(4) ? nil : Date(timeIntervalSince1970: s.double(4)),
                    maps: s.isNull(5) ? nil : TokenRecord.splitMaps(s.text(5) ?? ""),
                    revokedAt: s.isNull(6) ? nil : Date(timeIntervalSince1970: s.double(6)))
    }
}
