import Foundation
import Geometry
import Testing
import VPS
import VPSClient
import VPSServer

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
}
