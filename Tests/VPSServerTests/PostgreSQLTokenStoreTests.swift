import Foundation
import Testing
import VPSServer

/// A PostgreSQL server for tests, named by `ARCLOUD_TEST_POSTGRES_URL` (scripts/test.sh
/// starts one in a scratch folder and sets it). Each test gets its own schema, so tests
/// run in parallel without seeing each other's tokens.
enum PostgreSQLTestServer {
    static let url = ProcessInfo.processInfo.environment["ARCLOUD_TEST_POSTGRES_URL"].flatMap { $0.isEmpty ? nil : $0 }

    /// A URL whose connections work in a new, empty schema.
    static func freshSchemaURL() throws -> String {
        let base = try #require(url)
        let schema = "t_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        try PostgreSQLConnection(url: base).execute("CREATE SCHEMA \(schema)")
        let separator = base.contains("?") ? "&" : "?"
        return base + separator + "options=-csearch_path%3D" + schema
    }

    /// Every row of the tokens table as text.
    static func dump(_ url: String) throws -> String {
        try PostgreSQLConnection(url: url).execute("SELECT t::text FROM arcloud_tokens t")
            .rows.compactMap { $0.first ?? nil }.joined(separator: "\n")
    }
}

/// `PostgreSQLTokenStore` against the same contract as the SQLite store, plus what only a
/// shared server has: many replicas creating the table at once, and an unreachable server.
@Suite(.enabled(if: PostgreSQLTestServer.url != nil,
                "ARCLOUD_TEST_POSTGRES_URL is not set: the PostgreSQL token store tests are skipped (scripts/test.sh starts a scratch server and sets it; CI always does)"))
struct PostgreSQLTokenStoreTests {
    @Test func verifyCoversEveryVerdict() throws {
        try TokenStoreContract.verifyCoversEveryVerdict(try PostgreSQLTokenStore(url: PostgreSQLTestServer.freshSchemaURL()))
    }

    @Test func listAndRevokeByName() throws {
        try TokenStoreContract.listAndRevokeByName(try PostgreSQLTokenStore(url: PostgreSQLTestServer.freshSchemaURL()))
    }

    @Test func aRevocationIsSeenByAnotherReplicaAtOnce() throws {
        let url = try PostgreSQLTestServer.freshSchemaURL()
        try TokenStoreContract.revocationIsSeenByAnotherStoreAtOnce(try PostgreSQLTokenStore(url: url),
                                                                    try PostgreSQLTokenStore(url: url))
    }

    @Test func theTableHoldsHashesNeverTokens() throws {
        let url = try PostgreSQLTestServer.freshSchemaURL()
        try TokenStoreContract.storageHoldsHashesNeverTokens(try PostgreSQLTokenStore(url: url)) {
            try PostgreSQLTestServer.dump(url)
        }
    }

    @Test func replicasStartingTogetherShareOneTable() async throws {
        let url = try PostgreSQLTestServer.freshSchemaURL()
        let ids = try await withThrowingTaskGroup(of: Int64.self) { group in
            for i in 0..<6 {
                group.addTask { try PostgreSQLTokenStore(url: url).create(name: "r\(i)").record.id }
            }
            return try await group.reduce(into: [Int64]()) { $0.append($1) }
        }
        #expect(Set(ids).count == 6)
        #expect(try PostgreSQLTokenStore(url: url).list().count == 6)
    }

    @Test func concurrentChecksOnOneStoreAllSucceed() async throws {
        let store = try PostgreSQLTokenStore(url: PostgreSQLTestServer.freshSchemaURL())
        let (token, _) = try store.create(name: "busy")
        let verdicts = await withTaskGroup(of: TokenVerification.self) { group in
            for _ in 0..<64 { group.addTask { store.verify(token: token, now: Date()) } }
            return await group.reduce(into: [TokenVerification]()) { $0.append($1) }
        }
        #expect(verdicts.count == 64 && verdicts.allSatisfy { $0 == .valid(TokenGrant(name: "busy", maps: nil)) })
    }

    @Test func anUnreachableServerIsAClearErrorNotACrash() {
        // Port 1 on loopback: nothing listens there.
        let url = "postgresql://nobody:secret@127.0.0.1:1/none?connect_timeout=2"
        #expect {
            _ = try PostgreSQLTokenStore(url: url)
        } throws: { error in
            let text = "\(error)"
            return text.contains("cannot connect") && text.contains("127.0.0.1") && !text.contains("secret")
        }
    }
}
