import Foundation

/// Where issued bearer tokens live: kept as SHA-256 hashes (the clear token is shown once
/// by `create` and never stored), with a name, optional expiry and map scope, and a
/// revocation time. The server asks the store on every request, so a revocation takes
/// effect at once on every server that shares the store.
///
/// Two implementations: `SQLiteTokenStore` (a file; the embedded default, one machine)
/// and `PostgreSQLTokenStore` (a server that every replica shares). Implementations
/// provide the storage operations; issuing and verifying are written once, here.
public protocol TokenStore: BearerTokenVerifier {
    /// Where the tokens are, for messages (never a password).
    var location: String { get }

    /// Stores a new token's hash and details; returns its id.
    func insert(name: String, hash: [UInt8], hint: String, createdAt: Date, expiresAt: Date?,
                maps: [String]?) throws -> Int64

    /// The token whose hash is `hash`, with the hash as stored; nil when there is none.
    func lookup(hash: [UInt8]) throws -> (storedHash: [UInt8], record: TokenRecord)?

    /// Every token issued, oldest first.
    func list() throws -> [TokenRecord]

    /// Revokes the token with this id; false when there is none or it was already revoked.
    func revoke(id: Int64, now: Date) throws -> Bool

    /// Revokes every unrevoked token with this name; returns how many.
    func revoke(name: String, now: Date) throws -> Int
}

extension TokenStore {
    /// Issues a new token. Returns the clear token (show it once) and its record.
    /// - Parameters:
    ///   - lifetime: seconds until it expires; nil never expires.
    ///   - maps: map ids it may use; nil for all maps.
    public func create(name: String, lifetime: TimeInterval? = nil, maps: [String]? = nil,
                       now: Date = Date()) throws -> (token: String, record: TokenRecord) {
        let token = AccessToken.generate()
        let expires = lifetime.map { now.addingTimeInterval($0) }
        let id = try insert(name: name, hash: AccessToken.hash(token), hint: AccessToken.hint(token),
                            createdAt: now, expiresAt: expires, maps: maps)
        return (token, TokenRecord(id: id, name: name, hint: AccessToken.hint(token), createdAt: now,
                                   expiresAt: expires, maps: maps))
    }

    /// Revokes the token with this id now.
    @discardableResult
    public func revoke(id: Int64) throws -> Bool { try revoke(id: id, now: Date()) }

    /// Revokes every unrevoked token with this name now.
    @discardableResult
    public func revoke(name: String) throws -> Int { try revoke(name: name, now: Date()) }

    /// Lookup is by hash; the stored and computed hashes are then compared in constant
    /// time. (An index lookup on a hash reveals nothing useful through timing: an attacker
    /// cannot steer the hash of what they send.)
    public func verify(token: String, now: Date) -> TokenVerification {
        guard AccessToken.isWellFormed(token) else { return .malformed }
        let presented = AccessToken.hash(token)
        let found: (storedHash: [UInt8], record: TokenRecord)?
        do { found = try lookup(hash: presented) } catch {
            return .unavailable("token store: \(error)")
        }
        guard let found, constantTimeEquals(found.storedHash, presented) else { return .unknown }
        if found.record.revokedAt != nil { return .revoked }
        if let e = found.record.expiresAt, e <= now { return .expired }
        return .valid(TokenGrant(name: found.record.name, maps: found.record.maps.map(Set.init)))
    }
}

/// Opens the token store named on the command line (`--db`).
public enum TokenStoreLocation {
    /// Whether `text` names a PostgreSQL server (`postgresql://…` or `postgres://…`)
    /// rather than an SQLite file.
    public static func isPostgreSQL(_ text: String) -> Bool {
        text.hasPrefix("postgresql://") || text.hasPrefix("postgres://")
    }

    /// A PostgreSQL store for a `postgresql://` URL, otherwise the SQLite file at this
    /// path (created when missing). Either creates its table when missing.
    public static func open(_ text: String) throws -> any TokenStore {
        isPostgreSQL(text) ? try PostgreSQLTokenStore(url: text) : try SQLiteTokenStore(path: text)
    }

    /// A store that cannot be opened: one line naming it (a PostgreSQL URL without its
    /// password) and why.
    public struct OpenFailure: Error, Sendable, CustomStringConvertible {
        public let description: String
    }

    /// `open(_:)`, its failure said in one line. With `mustExist`, an SQLite file is never
    /// created (commands that only read or revoke: a mistyped path would otherwise list
    /// nothing, silently).
    public static func open(_ text: String, mustExist: Bool) throws(OpenFailure) -> any TokenStore {
        if mustExist, !isPostgreSQL(text), !FileManager.default.fileExists(atPath: text) {
            throw OpenFailure(description: "no token file at '\(text)'")
        }
        do { return try open(text) } catch {
            let named = isPostgreSQL(text) ? PostgreSQLConnection.redacted(text) : "'\(text)'"
            throw OpenFailure(description: "cannot open the token store \(named): \(error)")
        }
    }
}
