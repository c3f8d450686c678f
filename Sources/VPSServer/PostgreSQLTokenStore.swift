import Foundation
import Support

/// Bearer tokens in a PostgreSQL table (`arcloud_tokens`) that every replica shares:
/// `arcloud serve --db postgresql://…` on each machine, `arcloud token …` from anywhere.
/// Every request reads the table, so a revocation is honoured by every replica from its
/// next request on, with no cache to expire.
///
/// Connections are pooled: a request takes an idle one or opens one, and gives it back
/// when done. A pooled connection that broke (the server restarted) is dropped and the
/// read retried once on a fresh one.
public final class PostgreSQLTokenStore: TokenStore {
    private let url: String
    private let idle = Locked<[PostgreSQLConnection]>([])
    /// Idle connections kept at most; more are closed when given back.
    private let maxIdle: Int

    public var location: String { PostgreSQLConnection.redacted(url) }

    /// Connects to `url` and creates the table when missing (several replicas starting at
    /// once serialise on an advisory lock, so none sees a half-made table).
    public init(url: String, maxIdleConnections: Int = 8) throws {
        self.url = url
        maxIdle = max(1, maxIdleConnections)
        try withConnection(retry: false) { c in
            try c.execute("BEGIN")
            do {
                try c.execute("SELECT pg_advisory_xact_lock(hashtext('arcloud_tokens'))")
                try c.execute("""
                    CREATE TABLE IF NOT EXISTS arcloud_tokens (
                        id BIGSERIAL PRIMARY KEY,
                        name TEXT NOT NULL,
                        hash BYTEA NOT NULL UNIQUE,
                        hint TEXT NOT NULL,
                        created_at TIMESTAMPTZ NOT NULL,
                        expires_at TIMESTAMPTZ,
                        maps TEXT,
                        revoked_at TIMESTAMPTZ
                    )
                    """)
                try c.execute("COMMIT")
            } catch {
                _ = try? c.execute("ROLLBACK")
                throw error
            }
        }
    }

    public func insert(name: String, hash: [UInt8], hint: String, createdAt: Date, expiresAt: Date?,
                       maps: [String]?) throws -> Int64 {
        // Not retried: after a broken connection the insert may or may not have happened.
        let result = try withConnection(retry: false) { c in
            try c.execute("""
                INSERT INTO arcloud_tokens (name, hash, hint, created_at, expires_at, maps)
                VALUES ($1, decode($2, 'hex'), $3, to_timestamp($4::float8), to_timestamp($5::float8), $6)
                RETURNING id
                """, [name, SHA256.hex(hash), hint, Self.epoch(createdAt), expiresAt.map(Self.epoch),
                      TokenRecord.joinMaps(maps)])
        }
        guard let text = result.rows.first?.first ?? nil, let id = Int64(text) else {
            throw PostgreSQLError(message: "the insert returned no id")
        }
        return id
    }

    public func lookup(hash: [UInt8]) throws -> (storedHash: [UInt8], record: TokenRecord)? {
        let result = try withConnection(retry: true) { c in
            try c.execute("\(Self.selectRecord), encode(hash, 'hex') FROM arcloud_tokens WHERE hash = decode($1, 'hex')",
                          [SHA256.hex(hash)])
        }
        guard let row = result.rows.first else { return nil }
        return (Self.bytes(hex: row[7] ?? ""), Self.record(row))
    }

    public func list() throws -> [TokenRecord] {
        try withConnection(retry: true) { c in
            try c.execute("\(Self.selectRecord) FROM arcloud_tokens ORDER BY id")
        }.rows.map(Self.record)
    }

    public func revoke(id: Int64, now: Date) throws -> Bool {
        try withConnection(retry: true) { c in
            try c.execute("UPDATE arcloud_tokens SET revoked_at = to_timestamp($1::float8) WHERE id = $2 AND revoked_at IS NULL",
                          [Self.epoch(now), String(id)])
        }.affectedRows > 0
    }

    public func revoke(name: String, now: Date) throws -> Int {
        try withConnection(retry: true) { c in
            try c.execute("UPDATE arcloud_tokens SET revoked_at = to_timestamp($1::float8) WHERE name = $2 AND revoked_at IS NULL",
                          [Self.epoch(now), name])
        }.affectedRows
    }

    // MARK: Pool

    /// Runs `body` on a pooled connection. When it fails because the connection broke and
    /// `retry` is set, once more on a new connection (revokes are idempotent, reads safe).
    private func withConnection<R>(retry: Bool, _ body: (PostgreSQLConnection) throws -> R) throws -> R {
        var attemptsLeft = retry ? 2 : 1
        while true {
            attemptsLeft -= 1
            let connection = try idle.withLock { $0.popLast() } ?? PostgreSQLConnection(url: url)
            do {
                let result = try body(connection)
                giveBack(connection)
                return result
            } catch {
                if connection.isHealthy { giveBack(connection) }
                if connection.isHealthy || attemptsLeft == 0 { throw error }
            }
        }
    }

    private func giveBack(_ connection: PostgreSQLConnection) {
        idle.withLock { if $0.count < maxIdle { $0.append(connection) } }
    }

    // MARK: Rows

    /// Columns 0–6 in the order `record` reads; times as seconds since 1970.
    private static let selectRecord = """
        SELECT id, name, hint, extract(epoch FROM created_at), extract(epoch FROM expires_at), maps,
               extract(epoch FROM revoked_at)
        """

    private static func record(_ row: [String?]) -> TokenRecord {
        func date(_ i: Int) -> Date? { row[i].flatMap(Double.init).map(Date.init(timeIntervalSince1970:)) }
        return TokenRecord(id: Int64(row[0] ?? "") ?? 0, name: row[1] ?? "", hint: row[2] ?? "",
                           createdAt: date(3) ?? Date(timeIntervalSince1970: 0), expiresAt: date(4),
                           maps: TokenRecord.splitMaps(row[5]), revokedAt: date(6))
    }

    private static func epoch(_ date: Date) -> String { String(date.timeIntervalSince1970) }

    private static func bytes(hex: String) -> [UInt8] {
        let digits = Array(hex.utf8)
        guard digits.count % 2 == 0 else { return [] }
        func value(_ d: UInt8) -> UInt8? {
            switch d {
            case 48...57: return d - 48
            case 97...102: return d - 87
            case 65...70: return d - 55
            default: return nil
            }
        }
        var out: [UInt8] = []
        out.reserveCapacity(digits.count / 2)
        var i = 0
        while i < digits.count {
            guard let hi = value(digits[i]), let lo = value(digits[i + 1]) else { return [] }
            out.append(hi << 4 | lo)
            i += 2
        }
        return out
    }
}
