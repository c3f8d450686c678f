import Foundation
import MapModel
import VPSModel

/// One row of a map table as the loader reads it: every column read through here is
/// checked for its storage class and, for numbers, finiteness, and a bad value throws a
/// `MapInconsistency` naming the table, the row and the column.
///
/// SQLite converts silently (TEXT `'abc'` in a REAL column reads as 0, NULL as 0) and
/// stores infinities; a map is an input file like any other, so the loader never reads a
/// column any other way. New map columns get read through these accessors too.
struct MapTableRow {
    let table: String
    /// 0-based position of the row in the scan (tables are read ordered by their index).
    let row: Int
    let statement: SQLiteStatement

    /// Runs `sql` (a `SELECT … FROM <table>`) and calls `body` with each row.
    static func forEach(_ db: SQLiteDatabase, table: String, _ sql: String,
                        _ body: (MapTableRow) throws -> Void) throws {
        var row = 0
        try db.forEachRow(sql) { s in
            try body(MapTableRow(table: table, row: row, statement: s))
            row += 1
        }
    }

    /// A `MapInconsistency` naming this row and `column`.
    func problem(_ column: Int, _ message: String) -> MapInconsistency {
        MapInconsistency("table \(table), row \(row), column \(statement.columnName(column)): \(message)")
    }

    /// A `MapInconsistency` naming this row and the columns `first...last`, for a problem
    /// of several columns taken together (a camera's intrinsics).
    func problem(columns first: Int, _ last: Int, _ message: String) -> MapInconsistency {
        MapInconsistency("table \(table), row \(row), columns \(statement.columnName(first))…\(statement.columnName(last)): \(message)")
    }

    private func type(_ column: Int) -> SQLiteStorageClass { statement.storageClass(column) }

    private func wrongType(_ column: Int, expected: String) -> MapInconsistency {
        problem(column, "expected \(expected), found \(type(column).phrase)")
    }

    /// An INTEGER column within `range`.
    func integer(_ column: Int, in range: ClosedRange<Int> = Int.min...Int.max) throws -> Int {
        guard type(column) == .integer else { throw wrongType(column, expected: "an integer") }
        let v = statement.int(column)
        guard range.contains(v) else { throw problem(column, "\(v) is outside \(range.lowerBound)...\(range.upperBound)") }
        return v
    }

    /// An INTEGER column within `range`, or nil for NULL.
    func optionalInteger(_ column: Int, in range: ClosedRange<Int> = Int.min...Int.max) throws -> Int? {
        type(column) == .null ? nil : try integer(column, in: range)
    }

    /// A finite number (REAL, or INTEGER, which SQLite stores for integral REALs).
    func real(_ column: Int) throws -> Double {
        let t = type(column)
        guard t == .real || t == .integer else { throw wrongType(column, expected: "a number") }
        let v = statement.double(column)
        guard v.isFinite else { throw problem(column, "\(v) is not finite") }
        return v
    }

    /// A finite number, or nil for NULL.
    func optionalReal(_ column: Int) throws -> Double? {
        type(column) == .null ? nil : try real(column)
    }

    /// A TEXT column.
    func text(_ column: Int) throws -> String {
        guard type(column) == .text, let s = statement.text(column) else { throw wrongType(column, expected: "text") }
        return s
    }

    /// A TEXT column, or nil for NULL.
    func optionalText(_ column: Int) throws -> String? {
        type(column) == .null ? nil : try text(column)
    }

    /// A BLOB column's bytes, valid only inside `body`.
    func withBlob<R>(_ column: Int, _ body: (UnsafeRawBufferPointer) throws -> R) throws -> R {
        guard type(column) == .blob else { throw wrongType(column, expected: "a blob") }
        return try statement.withBlob(column, body)
    }

    /// A TEXT column holding JSON of type `T`.
    func json<T: Decodable>(_ type: T.Type, _ column: Int) throws -> T {
        try MapTableRow.decodeJSON(type, text(column)) { problem(column, $0) }
    }

    /// Decodes `text` as JSON of `type`; a failure becomes `fail(<what is wrong>)`, one
    /// line naming the JSON path (as session files' errors do), not the decoder's dump.
    static func decodeJSON<T: Decodable>(_ type: T.Type, _ text: String,
                                         _ fail: (String) -> MapInconsistency) throws -> T {
        do {
            return try JSONDecoder().decode(type, from: Data(text.utf8))
        } catch let e as DecodingError {
            throw fail(describe(e))
        }
    }

    /// A one-line account of a JSON decoding error: where and what.
    static func describe(_ error: DecodingError) -> String {
        let p = DatasetJSON.problem(from: error, fileName: "JSON")
        return "bad \(p.location): \(p.message)"
    }
}
