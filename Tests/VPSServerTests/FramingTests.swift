import Foundation
import Testing
import VPSServer
import TestSupport
import ServerTestSupport

/// Malformed framing and oversized heads over raw sockets, against a real server. What the
/// server is handed it answers in the JSON envelope; what libmicrohttpd 0.9.75 refuses
/// before handing it over is answered by the library (HTML, documented in
/// docs/service.md) but still reaches the access log and the metrics.
@Suite struct FramingTests {
    private static func logged(_ f: ServerFixture) -> [AccessLogEntry] {
        f.log.lines.withLock { $0 }.compactMap { try? JSONDecoder().decode(AccessLogEntry.self, from: Data($0.utf8)) }
    }

    @Test func requestsTheLibraryRefusesAreLoggedAndCounted() async throws {
        let f = try ServerFixture(configuration: VPSServerConfiguration(port: 0, connectionTimeoutSeconds: 30))
        let port = f.server.port
        let cases: [(request: [UInt8], status: Int)] = [
            (Array("POST /v1/localize HTTP/1.1\r\nHost: t\r\nContent-Length: abc\r\n\r\n".utf8), 400),
            (Array("POST /v1/localize HTTP/1.1\r\nHost: t\r\nContent-Length: -1\r\n\r\n".utf8), 400),
            (Array("POST /v1/localize HTTP/1.1\r\nHost: t\r\nContent-Length: 1234567890123456789012\r\n\r\n".utf8), 413),
            (Array("GET /\(String(repeating: "a", count: 100_000)) HTTP/1.1\r\nHost: t\r\n\r\n".utf8), 414),
            (Array(("GET /healthz HTTP/1.1\r\nHost: t\r\n"
                    + (0..<200).map { "X-\($0): \(String(repeating: "b", count: 1000))\r\n" }.joined() + "\r\n").utf8), 431),
            (Array("GET /healthz HTTP/2.0\r\nHost: t\r\n\r\n".utf8), 505),
        ]
        for c in cases {
            let r = try await rawExchangeOffThread(port: port, c.request, timeout: 30)
            #expect(r.status == c.status)
        }
        // Each answer the library gave is one access-log line and one count, on `unmatched`.
        for status in Set(cases.map(\.status)) {
            let expected = cases.filter { $0.status == status }.count
            #expect(Self.logged(f).filter { $0.status == status && $0.outcome == "refused_by_libmicrohttpd" }.count == expected,
                    "status \(status)")
            let metrics = try await f.client(nil).metricsText()
            #expect(metrics.contains(#"arcloud_http_requests_total{route="unmatched",method="OTHER",status="\#(status)"} \#(expected)"#))
        }
    }

    @Test func whatTheServerIsHandedItAnswersInJSON() async throws {
        let f = try ServerFixture(configuration: VPSServerConfiguration(port: 0, connectionTimeoutSeconds: 30,
                                                                        headTimeoutSeconds: 1))
        let port = f.server.port
        // A parseable Content-Length beyond the body limit, a 405 and a 404: JSON, logged.
        let tooLarge = try await rawExchangeOffThread(port: port, Array(
            "POST /v1/localize HTTP/1.1\r\nHost: t\r\nAuthorization: Bearer \(f.allMaps)\r\nContent-Type: multipart/form-data; boundary=b\r\nContent-Length: 99999999999\r\n\r\n".utf8))
        #expect(tooLarge.status == 413 && tooLarge.body.contains(#""code":"body_too_large""#))
        let wrongMethod = try await rawExchangeOffThread(port: port, Array("DELETE /v1/maps HTTP/1.1\r\nHost: t\r\n\r\n".utf8))
        #expect(wrongMethod.status == 405 && wrongMethod.headers["content-type"] == "application/json")
        // A garbage request line never becomes a request: the head deadline answers it in JSON.
        let garbage = try await rawExchangeOffThread(port: port, [0, 1, 2] + Array("garbage\r\n\r\n".utf8), timeout: 30)
        #expect(garbage.status == 408 && garbage.body.contains(#""code":"head_timeout""#))
        let metrics = try await f.client(nil).metricsText()
        // The 405 is counted on the route it was sent to, not as unmatched.
        #expect(metrics.contains(#"arcloud_http_requests_total{route="/v1/maps",method="DELETE",status="405"} 1"#))
        #expect(metrics.contains("arcloud_build_info{version=\"dev\",libmicrohttpd=\"0.9."))
        for name in ["process_resident_memory_bytes", "process_cpu_seconds_total", "process_open_fds", "process_start_time_seconds"] {
            #expect(metrics.contains("\n\(name) "), "\(name)")
        }
    }
}
