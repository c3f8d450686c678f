import Foundation
import Testing
import VPSServer

/// What every `TokenStore` must do, written once and run against each implementation
/// (`TokenStoreTests` for SQLite, `PostgreSQLTokenStoreTests` for PostgreSQL). Each check
/// takes fresh, empty stores.
enum TokenStoreContract {
    static func verifyCoversEveryVerdict(_ store: any TokenStore) throws {
        let now = Date()
        let (good, _) = try store.create(name: "ci", now: now)
        let (scoped, _) = try store.create(name: "scoped", maps: ["a", "b"], now: now)
        let (shortLived, _) = try store.create(name: "short", lifetime: 60, now: now)
        let (gone, goneRecord) = try store.create(name: "gone", now: now)
        #expect(try store.revoke(id: goneRecord.id))
        #expect(try !store.revoke(id: goneRecord.id))       // already revoked
        #expect(try !store.revoke(id: 987_654))            // never issued

        #expect(store.verify(token: good, now: now) == .valid(TokenGrant(name: "ci", maps: nil)))
        #expect(store.verify(token: scoped, now: now) == .valid(TokenGrant(name: "scoped", maps: ["a", "b"])))
        #expect(store.verify(token: shortLived, now: now.addingTimeInterval(59)) == .valid(TokenGrant(name: "short", maps: nil)))
        #expect(store.verify(token: shortLived, now: now.addingTimeInterval(61)) == .expired)
        #expect(store.verify(token: gone, now: now) == .revoked)
        #expect(store.verify(token: AccessToken.generate(), now: now) == .unknown)
        #expect(store.verify(token: "Bearer nonsense", now: now) == .malformed)
        let grant = TokenGrant(name: "scoped", maps: ["a"])
        #expect(grant.allows(mapId: "a") && !grant.allows(mapId: "c"))
    }

    static func listAndRevokeByName(_ store: any TokenStore) throws {
        let created = Date(timeIntervalSince1970: 1_800_000_000.25)
        _ = try store.create(name: "a", now: created)
        _ = try store.create(name: "b", lifetime: 3600, maps: ["m1", "m2"], now: created)
        _ = try store.create(name: "b", now: created)
        #expect(try store.revoke(name: "b") == 2)
        #expect(try store.revoke(name: "b") == 0)
        let list = try store.list()
        #expect(list.map(\.name) == ["a", "b", "b"])
        #expect(list.map { $0.status() } == ["active", "revoked", "revoked"])
        #expect(list[1].maps == ["m1", "m2"])
        #expect(list[0].maps == nil)
        // Times survive the round trip to the millisecond.
        #expect(abs(list[0].createdAt.timeIntervalSince(created)) < 0.001)
        #expect(abs((list[1].expiresAt?.timeIntervalSince(created) ?? 0) - 3600) < 0.001)
        #expect(list[0].expiresAt == nil && list[0].revokedAt == nil && list[1].revokedAt != nil)
        #expect(Set(list.map(\.id)).count == 3)
    }

    /// Two stores opened on the same storage stand for two replicas: a token revoked
    /// through one is refused by the other on its very next check.
    static func revocationIsSeenByAnotherStoreAtOnce(_ first: any TokenStore, _ second: any TokenStore) throws {
        let (token, record) = try first.create(name: "shared")
        #expect(second.verify(token: token, now: Date()) == .valid(TokenGrant(name: "shared", maps: nil)))
        #expect(try first.revoke(id: record.id))
        #expect(second.verify(token: token, now: Date()) == .revoked)
    }

    /// `dump` returns everything the storage holds, as text.
    static func storageHoldsHashesNeverTokens(_ store: any TokenStore, dump: () throws -> String) throws {
        let (token, _) = try store.create(name: "secret-holder")
        let randomPart = String(token.dropFirst(8))                // beyond the listed hint
        let stored = try dump()
        #expect(stored.contains("secret-holder"))                   // the dump does see the rows
        #expect(!stored.contains(randomPart))
        let listed = try store.list()
        #expect(listed.last?.hint == AccessToken.hint(token))
        #expect(listed.last.map { !$0.hint.contains(randomPart) } ?? false)
    }
}
