import CSQLite

/// A failure reported by SQLite, with the database file it concerns.
///
/// `kind` classifies the primary result code so callers can react without knowing
/// SQLite's numbers: a file that is not a database, a corrupt one, a busy lock, a
/// violated constraint. `description` always names the file.
public struct SQLiteError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong, by SQLite's primary result code.
    public enum Kind: String, Sendable, Hashable {
        /// `SQLITE_NOTADB`: the file exists but is not an SQLite database.
        case notADatabase
        /// `SQLITE_CORRUPT` or a failed integrity check: the database is damaged.
        case corrupt
        /// `SQLITE_CANTOPEN`: the file cannot be opened (missing, a directory, no permission).
        case cannotOpen
        /// `SQLITE_BUSY` / `SQLITE_LOCKED`: another connection holds a conflicting lock.
        case busy
        /// `SQLITE_CONSTRAINT`: a UNIQUE, NOT NULL, CHECK or foreign-key constraint failed.
        case constraint
        /// `SQLITE_READONLY`: a write on a read-only connection or file.
        case readOnly
        /// `SQLITE_FULL`: the disk is full.
        case full
        /// `SQLITE_IOERR`: the operating system reported an I/O error.
        case io
        /// `SQLITE_ERROR` and anything else (SQL syntax, missing table, misuse…).
        case other
    }

    public let kind: Kind
    /// SQLite's extended result code (`sqlite3_extended_errcode`).
    public let code: Int32
    /// SQLite's message, e.g. "no such table: points".
    public let message: String
    /// The database file concerned (`:memory:` for in-memory databases).
    public let path: String
    /// The SQL being run when the error happened, when there was one.
    public let sql: String?

    public init(code: Int32, message: String, path: String, sql: String? = nil) {
        self.code = code
        self.message = message
        self.path = path
        self.sql = sql
        self.kind = Self.kind(of: code)
    }

    public var description: String {
        var s = "\(path): \(message) (\(kind.rawValue), SQLite code \(code))"
        if let sql { s += " in: \(sql.prefix(120))" }
        return s
    }

    static func kind(of code: Int32) -> Kind {
        switch code & 0xFF {
        case SQLITE_NOTADB: .notADatabase
        case SQLITE_CORRUPT: .corrupt
        case SQLITE_CANTOPEN: .cannotOpen
        case SQLITE_BUSY, SQLITE_LOCKED: .busy
        case SQLITE_CONSTRAINT: .constraint
        case SQLITE_READONLY: .readOnly
        case SQLITE_FULL: .full
        case SQLITE_IOERR: .io
        default: .other
        }
    }
}
