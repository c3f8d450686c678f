import CSQLite
import Support

/// One connection to an SQLite database file.
///
/// A small, general wrapper over the SQLite C API: prepared statements (`prepare`),
/// one-shot helpers (`run`, `query`, `scalar`), scripts (`execute`), transactions with
/// nesting through savepoints, and typed errors (`SQLiteError`) that name the file.
///
/// A connection is not `Sendable`: confine it to one isolation domain (an actor, or a
/// `Locked` from the Locking module), as SQLite's statement objects require.
///
/// ```swift
/// let db = try SQLiteDatabase(path: "tokens.sqlite")
/// try db.execute("CREATE TABLE IF NOT EXISTS tokens (hash BLOB PRIMARY KEY, label TEXT)")
/// try db.transaction {
///     try db.run("INSERT INTO tokens VALUES (?, ?)", [.blob(hash), "ci"])
/// }
/// let n = try db.scalar("SELECT count(*) FROM tokens")?.integer
/// ```
public final class SQLiteDatabase {
    /// How to open the file.
    public enum Mode: Sendable {
        /// Read only; the file must exist.
        case readOnly
        /// Read and write; the file must exist.
        case readWrite
        /// Read and write, creating the file when it does not exist.
        case create
    }

    /// When a transaction takes its locks.
    public enum TransactionKind: String, Sendable {
        /// Locks on first read or write.
        case deferred = "DEFERRED"
        /// Takes the write lock at once: use for read-modify-write sequences.
        case immediate = "IMMEDIATE"
        case exclusive = "EXCLUSIVE"
    }

    /// The file this connection opened (`:memory:` for an in-memory database).
    public let path: String
    let handle: OpaquePointer
    private var savepointCounter = 0

    /// Opens (or creates, with `.create`) the database at `path`.
    ///
    /// - Parameter busyTimeout: how long a statement waits for another connection's lock
    ///   before failing with `.busy`; nil fails at once.
    /// - Throws: `SQLiteError` (`.cannotOpen` for a missing file in `.readOnly`/`.readWrite`).
    public init(path: String, mode: Mode = .create, busyTimeout: Duration? = .seconds(5)) throws {
        self.path = path
        var flags = SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE
        switch mode {
        case .readOnly: flags |= SQLITE_OPEN_READONLY
        case .readWrite: flags |= SQLITE_OPEN_READWRITE
        case .create: flags |= SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
        }
        var db: OpaquePointer?
        let rc = sqlite3_open_v2(path, &db, flags, nil)
        guard rc == SQLITE_OK, let db else {
            let message = db.flatMap { sqlite3_errmsg($0) }.map { String(cString: $0) }
                ?? String(cString: sqlite3_errstr(rc))
            sqlite3_close_v2(db)
            throw SQLiteError(code: rc, message: message, path: path)
        }
        handle = db
        if let busyTimeout {
            sqlite3_busy_timeout(db, Int32(clamping: busyTimeout.wholeMilliseconds))
        }
    }

    /// A private in-memory database (tests, scratch work).
    public static func inMemory() throws -> SQLiteDatabase { try SQLiteDatabase(path: ":memory:") }

    deinit {
        // close_v2 defers the close until the last statement is finalized.
        sqlite3_close_v2(handle)
    }

    // MARK: Running SQL

    /// Runs a script of one or more `;`-separated statements that return no rows of interest.
    public func execute(_ sql: String) throws {
        var message: UnsafeMutablePointer<CChar>?
        let rc = sqlite3_exec(handle, sql, nil, nil, &message)
        if rc != SQLITE_OK {
            let text = message.map { String(cString: $0) } ?? String(cString: sqlite3_errmsg(handle))
            sqlite3_free(message)
            throw SQLiteError(code: sqlite3_extended_errcode(handle), message: text, path: path, sql: sql)
        }
    }

    /// Prepares one statement for repeated use.
    public func prepare(_ sql: String) throws -> SQLiteStatement {
        try SQLiteStatement(database: self, sql: sql)
    }

    /// Runs one statement with `values` bound; returns the number of rows it changed.
    @discardableResult
    public func run(_ sql: String, _ values: [SQLiteValue] = []) throws -> Int {
        try prepare(sql).run(values)
        return changes
    }

    /// Runs one query and returns every row as values.
    public func query(_ sql: String, _ values: [SQLiteValue] = []) throws -> [[SQLiteValue]] {
        var rows: [[SQLiteValue]] = []
        try prepare(sql).forEachRow(values) { rows.append($0.row()) }
        return rows
    }

    /// Runs one query and calls `body` for each row (read columns from the statement).
    public func forEachRow(_ sql: String, _ values: [SQLiteValue] = [],
                           _ body: (SQLiteStatement) throws -> Void) throws {
        try prepare(sql).forEachRow(values, body)
    }

    /// The first column of the first row, or nil when the query returns no row.
    public func scalar(_ sql: String, _ values: [SQLiteValue] = []) throws -> SQLiteValue? {
        let s = try prepare(sql)
        try s.bind(values)
        defer { s.reset() }
        return try s.step() ? s.value(0) : nil
    }

    /// Rowid of the last successful INSERT on this connection.
    public var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(handle) }

    /// Rows changed by the last INSERT/UPDATE/DELETE.
    public var changes: Int { Int(sqlite3_changes64(handle)) }

    /// True outside an explicit transaction.
    public var isAutocommit: Bool { sqlite3_get_autocommit(handle) != 0 }

    // MARK: Transactions

    /// Runs `body` in a transaction: commits when it returns, rolls back when it throws.
    /// Nested calls use savepoints, so an inner failure undoes only the inner work.
    @discardableResult
    public func transaction<R>(_ kind: TransactionKind = .deferred, _ body: () throws -> R) throws -> R {
        if isAutocommit {
            return try bracketed(begin: "BEGIN \(kind.rawValue)", body, end: "COMMIT") {
                if !isAutocommit { try? execute("ROLLBACK") }
            }
        }
        savepointCounter += 1
        let name = "sp\(savepointCounter)"
        return try bracketed(begin: "SAVEPOINT \(name)", body, end: "RELEASE \(name)") {
            try? execute("ROLLBACK TO \(name)")
            try? execute("RELEASE \(name)")
        }
    }

    /// Executes `begin`, runs `body`, then executes `end`; when `body` or `end` throws,
    /// runs `undo` and rethrows.
    private func bracketed<R>(begin: String, _ body: () throws -> R, end: String, undo: () -> Void) throws -> R {
        try execute(begin)
        do {
            let r = try body()
            try execute(end)
            return r
        } catch {
            undo()
            throw error
        }
    }

    // MARK: File-level facts

    /// `PRAGMA user_version`: an integer the application owns, typically its schema version.
    public func userVersion() throws -> Int {
        Int(try scalar("PRAGMA user_version")?.integer ?? 0)
    }

    public func setUserVersion(_ v: Int) throws { try execute("PRAGMA user_version = \(Int32(clamping: v))") }

    /// `PRAGMA application_id`: a 32-bit number in the file header identifying the file format.
    public func applicationID() throws -> Int32 {
        Int32(truncatingIfNeeded: try scalar("PRAGMA application_id")?.integer ?? 0)
    }

    public func setApplicationID(_ id: Int32) throws { try execute("PRAGMA application_id = \(id)") }

    /// Whether a table (or view) of that name exists.
    public func tableExists(_ name: String) throws -> Bool {
        try scalar("SELECT 1 FROM sqlite_schema WHERE type IN ('table', 'view') AND name = ?", [.text(name)]) != nil
    }

    /// Checks the file's structure (`PRAGMA quick_check`, or the slower `integrity_check`);
    /// throws a `.corrupt` error quoting SQLite's first complaint.
    public func checkIntegrity(thorough: Bool = false) throws {
        let pragma = thorough ? "PRAGMA integrity_check(1)" : "PRAGMA quick_check(1)"
        let result = try scalar(pragma)?.text ?? ""
        if result != "ok" {
            throw SQLiteError(code: SQLITE_CORRUPT, message: "integrity check failed: \(result)", path: path)
        }
    }

    func error(code: Int32, sql: String?) -> SQLiteError {
        let extended = sqlite3_extended_errcode(handle)
        // The connection's error is the most precise, unless the failure was not from it.
        let c = (extended & 0xFF) == (code & 0xFF) ? extended : code
        return SQLiteError(code: c, message: String(cString: sqlite3_errmsg(handle)), path: path, sql: sql)
    }
}
