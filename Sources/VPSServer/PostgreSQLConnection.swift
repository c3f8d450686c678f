import CLibPQ
import Foundation

/// One libpq connection to a PostgreSQL server, running parameterised statements with
/// values in text form.
///
/// Not for concurrent use: a connection is used by one thread at a time (the token store
/// hands each to one caller from its pool), hence `@unchecked Sendable` — it may move
/// between threads, never be shared by them.
public final class PostgreSQLConnection: @unchecked Sendable {
    private let handle: OpaquePointer

    /// Connects to `url` (`postgresql://user@host:port/db?...`, any libpq connection
    /// string). Throws `PostgreSQLError` naming the server's reason when it cannot.
    ///
    /// A server that does not answer must not hang a request: connecting gives up after
    /// `connectTimeoutSeconds` unless the URL sets `connect_timeout`, and each statement
    /// after `statementTimeoutMilliseconds`.
    public init(url: String, connectTimeoutSeconds: Int = 5, statementTimeoutMilliseconds: Int = 5000) throws {
        // Keywords are applied in order and the last wins: the default timeout first, then
        // the URL (expanded from `dbname`), so a timeout in the URL overrides it.
        let keywords: [UnsafeMutablePointer<CChar>?] = ["connect_timeout", "dbname"].map { (s: String) in strdup(s) }
        let values: [UnsafeMutablePointer<CChar>?] = [String(connectTimeoutSeconds), url].map { (s: String) in strdup(s) }
        defer { for p in keywords + values { free(p) } }
        let k: [UnsafePointer<CChar>?] = keywords.map { $0.map { UnsafePointer($0) } } + [nil]
        let v: [UnsafePointer<CChar>?] = values.map { $0.map { UnsafePointer($0) } } + [nil]
        guard let h = PQconnectdbParams(k, v, 1) else {
            throw PostgreSQLError(message: "libpq could not allocate a connection")
        }
        guard PQstatus(h) == CONNECTION_OK else {
            let reason = Self.trimmed(PQerrorMessage(h))
            PQfinish(h)
            throw PostgreSQLError(message: "cannot connect to \(Self.redacted(url)): \(reason)")
        }
        // libpq prints server notices ("relation already exists, skipping") to stderr;
        // they are not errors and would clutter the service's output.
        PQsetNoticeProcessor(h, { _, _ in }, nil)
        handle = h
        try execute("SET statement_timeout = \(max(1, statementTimeoutMilliseconds))")
    }

    deinit { PQfinish(handle) }

    /// Whether the connection is still usable (false once the server went away).
    public var isHealthy: Bool { PQstatus(handle) == CONNECTION_OK }

    /// Runs one statement with `$1…` parameters (nil is SQL NULL) and returns its rows
    /// (text values, nil for NULL) and the count of rows it affected.
    @discardableResult
    public func execute(_ sql: String, _ parameters: [String?] = []) throws -> PostgreSQLResult {
        let copies: [UnsafeMutablePointer<CChar>?] = parameters.map { (p: String?) in p.flatMap { strdup($0) } }
        defer { for c in copies { free(c) } }
        let values: [UnsafePointer<CChar>?] = copies.map { $0.map { UnsafePointer($0) } }
        let result = values.withUnsafeBufferPointer { buffer in
            PQexecParams(handle, sql, Int32(parameters.count), nil, buffer.baseAddress, nil, nil, 0)
        }
        guard let result else { throw PostgreSQLError(message: Self.trimmed(PQerrorMessage(handle))) }
        defer { PQclear(result) }
        let status = PQresultStatus(result)
        guard status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK else {
            throw PostgreSQLError(message: Self.trimmed(PQresultErrorMessage(result)))
        }
        var rows: [[String?]] = []
        let columns = PQnfields(result)
        for r in 0..<PQntuples(result) {
            rows.append((0..<columns).map { c in
                PQgetisnull(result, r, c) == 1 ? nil : String(cString: PQgetvalue(result, r, c))
            })
        }
        let affected = Int(String(cString: PQcmdTuples(result))) ?? 0
        return PostgreSQLResult(rows: rows, affectedRows: affected)
    }

    /// The URL with any password replaced by `***`, for messages and logs.
    public static func redacted(_ url: String) -> String {
        guard let scheme = url.range(of: "://"), let at = url[scheme.upperBound...].firstIndex(of: "@") else { return url }
        let userInfo = url[scheme.upperBound..<at]
        guard let colon = userInfo.firstIndex(of: ":") else { return url }
        return String(url[..<colon]) + ":***" + String(url[at...])
    }

    private static func trimmed(_ message: UnsafePointer<CChar>?) -> String {
        message.map { String(cString: $0).trimmingCharacters(in: .whitespacesAndNewlines) } ?? "unknown libpq error"
    }
}

/// The rows of a statement (text values; nil for NULL) and how many rows it affected.
public struct PostgreSQLResult: Sendable {
    public var rows: [[String?]]
    public var affectedRows: Int
}

/// A PostgreSQL failure: the server's or libpq's message.
public struct PostgreSQLError: Error, Sendable, CustomStringConvertible {
    public var message: String
    public var description: String { "PostgreSQL: \(message)" }
}
