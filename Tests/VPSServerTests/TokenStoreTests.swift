import Foundation
import Testing
import VPSServer

/// `SQLiteTokenStore` against the contract every token store meets (`TokenStoreContract`),
/// plus what is particular to it. `PostgreSQLTokenStoreTests` runs the same contract.
@Suite struct TokenStoreTests {
    @Test func tokensHaveTheDocumentedShapeAndAreUnique() {
        let tokens = (0..<200).map { _ in AccessToken.generate() }
        #expect(Set(tokens).count == 200)
        for t in tokens {
            #expect(t.hasPrefix("arc_") && t.count == AccessToken.length)
            #expect(AccessToken.isWellFormed(t))
        }
        #expect(!AccessToken.isWellFormed("arc_" + String(repeating: "+", count: 43)))
        #expect(!AccessToken.isWellFormed("xyz_" + String(repeating: "A", count: 43)))
        #expect(!AccessToken.isWellFormed(""))
    }

    @Test func verifyCoversEveryVerdict() throws {
        try TokenStoreContract.verifyCoversEveryVerdict(try SQLiteTokenStore(path: ":memory:"))
    }

    @Test func listAndRevokeByName() throws {
        try TokenStoreContract.listAndRevokeByName(try SQLiteTokenStore(path: ":memory:"))
    }

    @Test func aRevocationIsSeenByAnotherOpenerAtOnce() throws {
        let path = temporaryTokenFile()
        defer { removeTokenFile(path) }
        try TokenStoreContract.revocationIsSeenByAnotherStoreAtOnce(try SQLiteTokenStore(path: path),
                                                                    try SQLiteTokenStore(path: path))
    }

    @Test func theFileHoldsHashesNeverTokens() throws {
        let path = temporaryTokenFile()
        defer { removeTokenFile(path) }
        try TokenStoreContract.storageHoldsHashesNeverTokens(try SQLiteTokenStore(path: path)) {
            ["", "-wal"].compactMap { FileManager.default.contents(atPath: path + $0) }
                .map { String(decoding: $0, as: UTF8.self) }.joined()
        }
        #expect(try SQLiteTokenStore(path: path).list().map(\.name) == ["secret-holder"])
    }

    @Test func aMissingOrUnwritableFileIsAClearError() {
        #expect(throws: (any Error).self) { try TokenStoreLocation.open("/nonexistent-dir/tokens.db") }
        #expect(TokenStoreLocation.isPostgreSQL("postgresql://u@h/db") && TokenStoreLocation.isPostgreSQL("postgres://h"))
        #expect(!TokenStoreLocation.isPostgreSQL("tokens.db"))
    }

    @Test func aStoreThatMustExistIsNeverCreatedAndFailuresNameTheStore() throws {
        let path = temporaryTokenFile()
        defer { removeTokenFile(path) }
        do { _ = try TokenStoreLocation.open(path, mustExist: true); Issue.record("a missing file was opened") } catch {
            #expect(error.description == "no token file at '\(path)'")
        }
        #expect(!FileManager.default.fileExists(atPath: path))
        let store = try TokenStoreLocation.open(path, mustExist: false)
        let created = try store.create(name: "listed", maps: ["gallery"])
        #expect(try TokenStoreLocation.open(path, mustExist: true).list().map(\.name) == ["listed"])
        let row = TokenListing.row(created.record, at: Date())
        #expect(row.hasPrefix("1   active   listed ") && row.hasSuffix(" never                 gallery"))
        #expect(try TokenListing.json(created.record, at: Date()).hasPrefix(#"{"created":"#))
        do { _ = try TokenStoreLocation.open("/nonexistent-dir/tokens.db", mustExist: false) } catch {
            #expect(error.description.hasPrefix("cannot open the token store '/nonexistent-dir/tokens.db': "))
        }
    }

    private func temporaryTokenFile() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("tokens-\(UUID().uuidString).db").path
    }

    private func removeTokenFile(_ path: String) {
        for s in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + s) }
    }

    @Test func lifetimesParse() {
        #expect(TokenLifetime.parse("24h") == 86400)
        #expect(TokenLifetime.parse("90s") == 90)
        #expect(TokenLifetime.parse("30m") == 1800)
        #expect(TokenLifetime.parse("7d") == 604800)
        #expect(TokenLifetime.parse("2w") == 1209600)
        for bad in ["", "h", "0h", "-1h", "1.5h", "12", "3y"] { #expect(TokenLifetime.parse(bad) == nil) }
    }
}

@Suite struct AccessLogEntryTests {
    @Test func jsonLineIsValidJSONInAFixedOrderAndEscapes() throws {
        let e = AccessLogEntry(time: "2026-01-01T00:00:00.000Z", method: "GET", route: "/v1/maps/{id}/scene",
                               status: 404, latencyMs: 1.25, map: "we\"ird\n\u{1}map", outcome: "unknown_map",
                               client: nil, bytesIn: 0)
        let line = e.jsonLine
        #expect(line.hasPrefix(#"{"time":"2026-01-01T00:00:00.000Z","method":"GET","route":"/v1/maps/{id}/scene","status":404"#))
        #expect(!line.contains("\n"))
        let back = try JSONDecoder().decode(AccessLogEntry.self, from: Data(line.utf8))
        #expect(back == e)
    }
}
