import Foundation
import VPSServer

/// Opens the token store named by `--db`: an SQLite file path or a PostgreSQL URL.
enum TokenStoreArgument {
    /// Opens (creating when missing) the store; a clear `CommandFailure` otherwise.
    static func open(_ db: String) throws -> any TokenStore {
        do { return try TokenStoreLocation.open(db) } catch {
            throw CommandFailure("cannot open the token store \(describe(db)): \(error)")
        }
    }

    /// Opens a store that must already exist: an SQLite file is never created by commands
    /// that only read or revoke (a mistyped path would otherwise list nothing, silently).
    static func openExisting(_ db: String) throws -> any TokenStore {
        if !TokenStoreLocation.isPostgreSQL(db), !FileManager.default.fileExists(atPath: db) {
            throw CommandFailure("no token file at '\(db)'")
        }
        return try open(db)
    }

    private static func describe(_ db: String) -> String {
        TokenStoreLocation.isPostgreSQL(db) ? PostgreSQLConnection.redacted(db) : "'\(db)'"
    }
}
