import Foundation
import Geometry
import RemoteLocalization
import ServerTestSupport
import Testing
import VPSClient

@Suite struct ServiceFrameLocalizerTests {
    @Test func connectingFindsTheMapOrNamesTheOnesTheTokenMayUse() async throws {
        let f = try ServerFixture()
        let (localizer, name) = try await ServiceFrameLocalizer.connect(try f.client(f.allMaps), mapId: "gallery")
        #expect(localizer.mapId == "gallery" && !name.isEmpty && localizer.mapUnits == "metres")
        do {
            _ = try await ServiceFrameLocalizer.connect(try f.client(f.lobbyOnly), mapId: "gallery")
            Issue.record("a map the token may not use was accepted")
        } catch {
            #expect("\(error)" == "\(f.server.baseURL) serves no map 'gallery' to this token (it serves: lobby)")
        }
        do {
            _ = try await ServiceFrameLocalizer.connect(try f.client("arc_not-a-token"), mapId: "gallery")
            Issue.record("an unknown token was accepted")
        } catch {
            #expect("\(error)".hasPrefix("cannot list the maps of \(f.server.baseURL): "))
        }
    }

    @Test func aBatchReportsItsRetriesAndItsFirstFailure() async throws {
        let f = try ServerFixture()
        let localizer = ServiceFrameLocalizer(client: try f.client(f.allMaps), mapId: "nowhere", policy: .never)
        #expect(localizer.report == "service: 0 retries" && localizer.failure(frames: 3) == nil)
        let image = ServerFixture.pngHeader(width: 64, height: 48) + [UInt8](repeating: 7, count: 1024)
        let failed = await Task.detached {
            do {
                _ = try localizer.localize(encoded: image, intrinsics: ServerFixture.intrinsics, prior: nil, gravity: nil, location: nil)
                return false
            } catch { return error is ServiceFrameError }
        }.value
        #expect(failed)
        #expect(localizer.failure(frames: 3)?.hasPrefix("1 of 3 frames failed at the service; first: ") == true)
    }
}
