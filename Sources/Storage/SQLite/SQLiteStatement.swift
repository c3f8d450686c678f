import CSQLite

/// A prepared SQL statement of one `SQLiteDatabase`.
///
/// Prepare once and run many times: `bind` (parameters are 1-based, as in SQLite),
/// `step` through the rows, read columns (0-based, as in SQLite), `reset`. Like its
/// database, a statement belongs to one isolation domain at a time.
///
/// ```swift
/// let insert = try db.prepare("INSERT INTO tokens (hash, label) VALUES (?, ?)")
/// for (hash, label) in tokens { try insert.run([.blob(hash), .text(label)]) }
/// ```
public final class SQLiteStatement {
    /// The database this statement belongs to; kept alive while the statement is.
    public let database: SQLiteDatabase
    /// The SQL text this statement was prepared from.
    public let sql: String
    let handle: OpaquePointer

    init(database: SQLiteDatabase, sql: String) throws {
        self.database = database
        self.sql = sql
        var stmt: OpaquePointer?
        let rc = sqlite3_prepare_v2(database.handle, sql, -1, &stmt, nil)
        guard rc == SQLITE_OK, let stmt else {
            sqlite3_finalize(stmt)
            throw database.error(code: rc, sql: sql)
        }
        handle = stmt
    }

    deinit { sqlite3_finalize(handle) }

    // MARK: Binding

    /// Number of `?` parameters the statement takes.
    public var parameterCount: Int { Int(sqlite3_bind_parameter_count(handle)) }

    /// Resets the statement, clears old bindings and binds `values` to parameters 1…n.
    public func bind(_ values: [SQLiteValue]) throws {
        reset()
        sqlite3_clear_bindings(handle)
        guard values.count == parameterCount else {
            throw SQLiteError(code: SQLITE_RANGE, message: "statement takes \(parameterCount) parameters, got \(values.count)",
                              path: database.path, sql: sql)
        }
        for (i, v) in values.enumerated() { try bind(v, at: i + 1) }
    }

    /// Binds one value to the parameter at `index` (1-based).
    public func bind(_ value: SQLiteValue, at index: Int) throws {
        let i = Int32(index)
        let rc: Int32
        switch value {
        case .null: rc = sqlite3_bind_null(handle, i)
        case .integer(let v): rc = sqlite3_bind_int64(handle, i, v)
        case .real(let v): rc = sqlite3_bind_double(handle, i, v)
        case .text(let s): rc = sqlite3_bind_text(handle, i, s, -1, csqlite_transient())
        case .blob(let b): return try bindBlob(b, at: index)
        }
        try check(rc)
    }

    /// Binds an integer without boxing it in a `SQLiteValue` (hot loops).
    public func bind(_ value: Int64, at index: Int) throws {
        try check(sqlite3_bind_int64(handle, Int32(index), value))
    }

    /// Binds a double without boxing it in a `SQLiteValue` (hot loops).
    public func bind(_ value: Double, at index: Int) throws {
        try check(sqlite3_bind_double(handle, Int32(index), value))
    }

    /// Binds bytes as a BLOB (SQLite copies them). An empty buffer binds a zero-length BLOB, not NULL.
    public func bindBlob(_ bytes: UnsafeRawBufferPointer, at index: Int) throws {
        let rc: Int32
        if let base = bytes.baseAddress, bytes.count > 0 {
            rc = sqlite3_bind_blob64(handle, Int32(index), base, sqlite3_uint64(bytes.count), csqlite_transient())
        } else {
            rc = sqlite3_bind_zeroblob(handle, Int32(index), 0)
        }
        try check(rc)
    }

    /// Binds a byte array as a BLOB.
    public func bindBlob(_ bytes: [UInt8], at index: Int) throws {
        try bytes.withUnsafeBytes { try bindBlob($0, at: index) }
    }

    // MARK: Stepping

    /// Advances to the next row: true when a row is available, false when the statement is done.
    @discardableResult
    public func step() throws -> Bool {
        let rc = sqlite3_step(handle)
        switch rc {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default:
            // The statement must be reset before it can be used again after an error.
            sqlite3_reset(handle)
            throw database.error(code: rc, sql: sql)
        }
    }

    /// Resets to the start, keeping the bindings.
    public func reset() { sqlite3_reset(handle) }

    /// Binds `values`, runs to completion, resets. For INSERT/UPDATE/DELETE/DDL.
    public func run(_ values: [SQLiteValue] = []) throws {
        try bind(values)
        while try step() {}
        reset()
    }

    /// Binds `values` and calls `body` once per result row, then resets.
    public func forEachRow(_ values: [SQLiteValue] = [], _ body: (SQLiteStatement) throws -> Void) throws {
        try bind(values)
        defer { reset() }
        while try step() { try body(self) }
    }

    // MARK: Columns of the current row (0-based)

    public var columnCount: Int { Int(sqlite3_column_count(handle)) }

    public func columnName(_ index: Int) -> String {
        sqlite3_column_name(handle, Int32(index)).map { String(cString: $0) } ?? ""
    }

    /// The storage class of the column in the current row.
    public func storageClass(_ index: Int) -> SQLiteStorageClass {
        switch sqlite3_column_type(handle, Int32(index)) {
        case SQLITE_INTEGER: .integer
        case SQLITE_FLOAT: .real
        case SQLITE_TEXT: .text
        case SQLITE_BLOB: .blob
        default: .null
        }
    }

    public func isNull(_ index: Int) -> Bool { sqlite3_column_type(handle, Int32(index)) == SQLITE_NULL }

    /// The column as an integer (SQLite converts; NULL reads as 0).
    public func int64(_ index: Int) -> Int64 { sqlite3_column_int64(handle, Int32(index)) }

    /// The column as an `Int` (SQLite converts; NULL reads as 0).
    public func int(_ index: Int) -> Int { Int(sqlite3_column_int64(handle, Int32(index))) }

    /// The column as a double (SQLite converts; NULL reads as 0).
    public func double(_ index: Int) -> Double { sqlite3_column_double(handle, Int32(index)) }

    /// The column as text; nil when NULL.
    public func text(_ index: Int) -> String? {
        guard let p = sqlite3_column_text(handle, Int32(index)) else { return nil }
        return String(cString: p)
    }

    /// The column's bytes, valid only inside `body` (no copy). NULL gives an empty buffer.
    public func withBlob<R>(_ index: Int, _ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        let i = Int32(index)
        let p = sqlite3_column_blob(handle, i)
        let n = Int(sqlite3_column_bytes(handle, i))
        return try body(UnsafeRawBufferPointer(start: p, count: p == nil ? 0 : n))
    }

    /// The column's bytes as an array. NULL gives an empty array.
    public func blob(_ index: Int) -> [UInt8] { withBlob(index) { Array($0) } }

    /// The column as a `SQLiteValue`, keeping its storage class.
    public func value(_ index: Int) -> SQLiteValue {
        switch sqlite3_column_type(handle, Int32(index)) {
        case SQLITE_INTEGER: .integer(int64(index))
        case SQLITE_FLOAT: .real(double(index))
        case SQLITE_TEXT: .text(text(index) ?? "")
        case SQLITE_BLOB: .blob(blob(index))
        default: .null
        }
    }

    /// All columns of the current row.
    public func row() -> [SQLiteValue] { (0..<columnCount).map(value) }

    private func check(_ rc: Int32) throws {
        if rc != SQLITE_OK { throw database.error(code: rc, sql: sql) }
    }
}
