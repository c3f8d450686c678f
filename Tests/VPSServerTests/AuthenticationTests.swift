import Foundation
import Testing
import VPSClient
import VPSServer
import TestSupport
import ServerTestSupport

/// Every token case against a real server: missing, malformed, unknown, expired, revoked
/// → 401 with `WWW-Authenticate: Bearer`; scoped to other maps → 403.
@Suite struct AuthenticationTests {
    let f: ServerFixture
    init() throws { f = try ServerFixture() }

    private func expectStatus(_ status: Int, code: String, token: String?,
                              sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let client = try f.client(token)
        do {
            _ = try await client.maps()
            Issue.record("expected HTTP \(status)", sourceLocation: sourceLocation)
        } catch let e {
            #expect(e.httpStatus == status, "\(e)", sourceLocation: sourceLocation)
            if case .http(_, let c, let m) = e {
                #expect(c == code, sourceLocation: sourceLocation)
                #expect(!m.isEmpty, sourceLocation: sourceLocation)
            }
            #expect(e.isAuthenticationFailure == (status == 401), sourceLocation: sourceLocation)
            #expect(!e.isTransient, sourceLocation: sourceLocation)
        }
    }

    @Test func missingTokenIs401WithBareChallenge() async throws {
        try await expectStatus(401, code: "missing_token", token: nil)
        let r = try rawExchange(port: f.server.port, "GET /v1/maps HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n")
        #expect(r.status == 401)
        #expect(r.headers["www-authenticate"] == "Bearer realm=\"arcloud\"")
        #expect(r.headers["content-type"] == "application/json")
        #expect(r.body.contains("\"missing_token\""))
    }

    @Test func malformedTokenIs401() async throws {
        try await expectStatus(401, code: "invalid_token", token: "not-a-token")
        try await expectStatus(401, code: "invalid_token", token: f.allMaps + "x")
        // Not the Bearer scheme at all.
        let r = try rawExchange(port: f.server.port,
                                "GET /v1/maps HTTP/1.1\r\nHost: t\r\nAuthorization: Basic dXNlcjpwdw==\r\nConnection: close\r\n\r\n")
        #expect(r.status == 401)
        #expect(r.headers["www-authenticate"]?.hasPrefix("Bearer realm=\"arcloud\", error=\"invalid_token\"") == true)
    }

    @Test func unknownTokenIs401() async throws {
        try await expectStatus(401, code: "invalid_token", token: AccessToken.generate())
    }

    @Test func expiredTokenIs401() async throws {
        try await expectStatus(401, code: "invalid_token", token: f.expired)
        let r = try rawExchange(port: f.server.port,
                                "GET /v1/maps HTTP/1.1\r\nHost: t\r\nAuthorization: Bearer \(f.expired)\r\nConnection: close\r\n\r\n")
        #expect(r.headers["www-authenticate"]?.contains("expired") == true)
    }

    @Test func revokedTokenIs401() async throws {
        try await expectStatus(401, code: "invalid_token", token: f.revoked)
    }

    @Test func revocationTakesEffectOnARunningServer() async throws {
        let (token, record) = try f.store.create(name: "short-lived")
        #expect(try await f.client(token).maps().count == 2)
        // A second connection to the file, as `arcloud token revoke` would open.
        try SQLiteTokenStore(path: f.store.path).revoke(id: record.id)
        try await expectStatus(401, code: "invalid_token", token: token)
    }

    @Test func scopedTokenSeesOnlyItsMaps() async throws {
        let maps = try await f.client(f.lobbyOnly).maps()
        #expect(maps.map(\.id) == ["lobby"])
        #expect(try await f.client(f.allMaps).maps().map(\.id) == ["gallery", "lobby"])
    }

    @Test func scopedTokenIs403ForOtherMaps() async throws {
        let c = try f.client(f.lobbyOnly)
        await #expect(throws: VPSClientError.http(status: 403, code: "insufficient_scope",
                                                  message: "the token 'lobby-only' may not use map 'gallery'")) {
            _ = try await c.scene(mapId: "gallery")
        }
        let image = ServerFixture.pngHeader(width: 64, height: 48)
        do {
            _ = try await c.localize(image: image, request: ServerFixture.request(mapId: "gallery"))
            Issue.record("expected 403")
        } catch {
            #expect(error.httpStatus == 403)
        }
        #expect(try await c.scene(mapId: "lobby").sections.first?.id == "main")
        let r = try await c.localize(image: ServerFixture.pngHeader(width: 64, height: 48), request: ServerFixture.request(mapId: "lobby"))
        #expect(r.mapId == "lobby")
        #expect(f.engine.calls.load(ordering: .relaxed) == 1)   // the refused one never reached the engine
    }

    @Test func healthAndMetricsNeedNoToken() async throws {
        #expect(try await f.client(nil).health().status == "ok")
        #expect(try await f.client(nil).metricsText().contains("arcloud_http_requests_total"))
    }

    @Test func theAccessLogNeverContainsTheToken() async throws {
        _ = try await f.client(f.allMaps).maps()
        _ = try? await f.client(f.revoked).maps()
        f.server.stop()
        let lines = f.log.lines.withLock { $0 }
        #expect(lines.count == 2)
        for line in lines {
            #expect(!line.contains(f.allMaps) && !line.contains(f.revoked) && !line.contains("arc_"))
        }
        let first = try JSONDecoder().decode(AccessLogEntry.self, from: Data(lines[0].utf8))
        #expect(first.route == "/v1/maps" && first.status == 200 && first.client == "all")
        let second = try JSONDecoder().decode(AccessLogEntry.self, from: Data(lines[1].utf8))
        #expect(second.status == 401 && second.outcome == "invalid_token" && second.client == nil)
    }
}
