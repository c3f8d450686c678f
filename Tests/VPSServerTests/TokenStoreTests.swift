import Foundation
import Testing
import VPSServer

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
        let store = try TokenStore(path: ":memory:")
        let now = Date()
        let (good, _) = try store.create(name: "ci", now: now)
        let (scoped, _) = try store.create(name: "scoped", maps: ["a", "b"], now: now)
        let (shortLived, _) = try store.create(name: "short", lifetime: 60, now: now)
        let (gone, goneRecord) = try store.create(name: "gone", now: now)
        #expect(try store.revoke(id: goneRecord.id))
        #expect(try !store.revoke(id: goneRecord.id))       // already revoked

        #expect(store.verify(token: good, now: now) == .valid(TokenGrant(name: "ci", maps: nil)))
        #expect(store.verify(token: scoped, now: now) == .valid(TokenGrant(name: "scoped", maps: ["a", "b"])))
        #expect(store.verify(token: shortLived, now: now.addingTimeInterval(59)) != .expired)
        #expect(store.verify(token: shortLived, now: now.addingTimeInterval(61)) == .expired)
        #expect(store.verify(token: gone, now: now) == .revoked)
        #expect(store.verify(token: AccessToken.generate(), now: now) == .unknown)
        #expect(store.verify(token: "Bearer nonsense", now: now) == .malformed)
        let grant = TokenGrant(name: "scoped", maps: ["a"])
        #expect(grant.allows(mapId: "a") && !grant.allows(mapId: "c"))
    }

    @Test func theFileHoldsHashesNeverTokens() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("tokens-\(UUID().uuidString).db").path
        defer { for s in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + s) } }
        let store = try TokenStore(path: path)
        let (token, _) = try store.create(name: "secret-holder")
        let randomPart = String(token.dropFirst(8))                // beyond the listed hint
        for suffix in ["", "-wal"] {
            if let data = FileManager.default.contents(atPath: path + suffix) {
                #expect(String(decoding: data, as: UTF8.self).range(of: randomPart) == nil)
            }
        }
        let listed = try TokenStore(path: path).list()
        #expect(listed.map(\.name) == ["secret-holder"])
        #expect(listed[0].hint == AccessToken.hint(token))
        #expect(!listed[0].hint.contains(randomPart))
    }

    @Test func listAndRevokeByName() throws {
        let store = try TokenStore(path: ":memory:")
        _ = try store.create(name: "a")
        _ = try store.create(name: "b", lifetime: 3600, maps: ["m1"])
        _ = try store.create(name: "b")
        #expect(try store.revoke(name: "b") == 2)
        let list = try store.list()
        #expect(list.map(\.name) == ["a", "b", "b"])
        #expect(list.map { $0.status() } == ["active", "revoked", "revoked"])
        #expect(list[1].maps == ["m1"])
        #expect(list[1].expiresAt != nil)
    }

    @Test func lifetimesParse() {
        #expect(TokenStore.parseLifetime("24h") == 86400)
        #expect(TokenStore.parseLifetime("90s") == 90)
        #expect(TokenStore.parseLifetime("30m") == 1800)
        #expect(TokenStore.parseLifetime("7d") == 604800)
        #expect(TokenStore.parseLifetime("2w") == 1209600)
        for bad in ["", "h", "0h", "-1h", "1.5h", "12", "3y"] { #expect(TokenStore.parseLifetime(bad) == nil) }
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
