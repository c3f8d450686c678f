import Foundation
import Geometry
import Testing
import VPSClient
import VPSServer
import TestSupport
import ServerTestSupport

@Suite struct ServerClientTests {
    @Test func healthAnswersWithoutToken() async throws {
        let f = try ServerFixture()
        let h = try await f.client(nil).health()
        #expect(h.status == "ok")
        #expect(f.server.port != 0)
    }

    @Test func localizeRoundTripsThroughMultipart() async throws {
        let f = try ServerFixture()
        let image = ServerFixture.pngHeader(width: 64, height: 48)
        let r = try await f.client(f.allMaps).localize(image: image, request: ServerFixture.request())
        #expect(r.status == .localized)
        #expect(r.mapId == "gallery")
        #expect(r.pose?.translation == SIMD3(1, 2, 3))
        #expect(r.inliers == image.count)
    }

    @Test func headAnswersHeadersOnly() throws {
        let f = try ServerFixture()
        let c = try RawConnection(port: f.server.port)
        c.send("HEAD /healthz HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n")
        let (text, closed) = c.readResponse(timeout: 30)
        #expect(closed)
        #expect(text.hasPrefix("HTTP/1.1 200"))
        #expect(text.hasSuffix("\r\n\r\n"))                     // no body after the headers
    }

    @Test func metricsAreValidPrometheusText() async throws {
        let f = try ServerFixture()
        let client = try f.client(f.allMaps)
        _ = try await client.localize(image: ServerFixture.pngHeader(width: 64, height: 48), request: ServerFixture.request())
        _ = try? await client.scene(mapId: "nowhere")
        let text = try await f.client(nil).metricsText()
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            // name{labels} value — every sample line ends in a number.
            #expect(Double(line.split(separator: " ").last ?? "") != nil, "\(line)")
        }
        #expect(text.contains(#"arcloud_http_requests_total{route="/v1/maps/{id}/scene",method="GET",status="404"} 1"#))
        #expect(text.contains(#"arcloud_localizations_total{outcome="localized"} 1"#))
        #expect(text.contains("arcloud_maps_loaded 1"))
        #expect(text.contains("# TYPE arcloud_http_request_duration_seconds histogram"))
        #expect(text.contains(#"arcloud_http_request_duration_seconds_count{route="/v1/localize"} 1"#))
        #expect(text.contains("# TYPE arcloud_localization_stage_seconds histogram"))
        #expect(text.contains(#"arcloud_localization_stage_seconds_bucket{stage="total",le="+Inf"} 1"#))
    }

    @Test func aStoppedServerCanStartAgain() async throws {
        let f = try ServerFixture()
        f.server.stop()
        f.server.stop()                                          // idempotent
        try f.server.start()
        #expect(try await f.client(nil).health().status == "ok")
        #expect(throws: VPSServerError.alreadyRunning) { try f.server.start() }
    }
}
