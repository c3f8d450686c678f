import Foundation
import Geometry
import Testing
import Evaluation
import VPSModel

/// `arcloud localize --server` against a real `arcloud serve` on loopback: the same
/// session and map give the same outputs as the embedded run, frame for frame.
@Suite struct LocalizeOverServiceTests {
    private static func servedMaps() throws -> URL {
        let maps = FileManager.default.temporaryDirectory.appendingPathComponent("served-maps-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: maps, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: ArcloudProcess.packageRoot.appendingPathComponent("Maps/gallery.vpsmap"),
                                         to: maps.appendingPathComponent("gallery.vpsmap"))
        return maps
    }

    private static func outcomes(in folder: URL) throws -> [FrameOutcome] {
        try String(contentsOf: folder.appendingPathComponent(BatchReport.File.results), encoding: .utf8)
            .split(separator: "\n").map { try JSONDecoder().decode(FrameOutcome.self, from: Data($0.utf8)) }
    }

    @Test func matchesTheEmbeddedRunFrameForFrame() async throws {
        let maps = try Self.servedMaps()
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("localize-server-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: maps); try? FileManager.default.removeItem(at: scratch) }
        let server = try SimulateServer(maps: maps)
        defer { server.stop() }
        let token = try server.createToken()
        // The frames compared and the retries counted below are the served map's, not its cold load's.
        try await server.loadMap("gallery", token: token,
                                 session: ArcloudProcess.packageRoot.appendingPathComponent("Datasets/gallery-query-walk"))

        let embeddedOut = scratch.appendingPathComponent("embedded"), serviceOut = scratch.appendingPathComponent("service")
        let embedded = try await ArcloudProcess.runOffThread(["localize", "--map", "Maps/gallery.vpsmap", "Datasets/gallery-query-walk",
                                               "--out", embeddedOut.path])
        #expect(embedded.status == 0, "\(embedded.stderr)")
        let service = try await ArcloudProcess.runOffThread(["localize", "--server", server.url, "--token", token, "--map", "gallery",
                                              "Datasets/gallery-query-walk", "--concurrency", "3", "--out", serviceOut.path])
        #expect(service.status == 0, "\(service.stderr)")
        #expect(service.stdout.contains("3 requests at a time"))
        #expect(service.stdout.contains("service: 0 retries; map version "))

        let local = try Self.outcomes(in: embeddedOut), remote = try Self.outcomes(in: serviceOut)
        #expect(local.count == 70 && remote.count == 70)
        #expect(local.filter { $0.result.isLocalized }.count >= 60)
        for (l, r) in zip(local, remote) {
            #expect(l.frameId == r.frameId && l.timestamp == r.timestamp && l.groundTruth == r.groundTruth)
            #expect(l.result.status == r.result.status, "frame \(l.frameId)")
            #expect(l.result.inliers == r.result.inliers && l.result.matches == r.result.matches, "frame \(l.frameId)")
            #expect(l.result.sectionId == r.result.sectionId && l.result.reason == r.result.reason, "frame \(l.frameId)")
            #expect(l.result.usedPrior == r.result.usedPrior)
            if let lp = l.result.pose, let rp = r.result.pose {
                let e = lp.error(to: rp)
                #expect(e.translation < 1e-9 && e.rotationDegrees < 1e-7, "frame \(l.frameId): \(e)")
            } else {
                #expect(l.result.pose == nil && r.result.pose == nil, "frame \(l.frameId)")
            }
        }
        // The trajectories are the same file; the summaries the same accuracy.
        let trajectory = { (dir: URL) in try String(contentsOf: dir.appendingPathComponent(BatchReport.File.trajectory), encoding: .utf8) }
        #expect(try trajectory(embeddedOut) == trajectory(serviceOut))
        let summary = { (dir: URL) in
            try JSONDecoder().decode(AccuracySummary.self, from: Data(contentsOf: dir.appendingPathComponent(BatchReport.File.summary)))
        }
        let (ls, rs) = (try summary(embeddedOut), try summary(serviceOut))
        #expect(ls.localized == rs.localized && ls.recall == rs.recall && ls.successRate == rs.successRate)
        #expect(FileManager.default.fileExists(atPath: serviceOut.appendingPathComponent(BatchReport.File.report).path))
    }

    @Test func aBadTokenMapOrOptionIsOneClearFailure() async throws {
        let maps = try Self.servedMaps()
        defer { try? FileManager.default.removeItem(at: maps) }
        let server = try SimulateServer(maps: maps)
        defer { server.stop() }
        let token = try server.createToken()
        let session = "Datasets/gallery-query-walk"

        let badToken = try await ArcloudProcess.runOffThread(["localize", "--server", server.url, "--token", "arc_" + String(repeating: "A", count: 43),
                                               "--map", "gallery", session])
        #expect(badToken.status == 1)
        #expect(badToken.stderr.contains("401") && badToken.stderr.split(separator: "\n").count == 1, "\(badToken.stderr)")

        let badMap = try await ArcloudProcess.runOffThread(["localize", "--server", server.url, "--token", token, "--map", "nowhere", session])
        #expect(badMap.status == 1)
        #expect(badMap.stderr.contains("no map 'nowhere'") && badMap.stderr.contains("gallery"), "\(badMap.stderr)")

        let mixed = try await ArcloudProcess.runOffThread(["localize", "--server", server.url, "--token", token, "--map", "gallery",
                                            "--workers", "2", session])
        #expect(mixed.status == 2 && mixed.stderr.contains("--concurrency"))
        let noToken = try await ArcloudProcess.runOffThread(["localize", "--server", server.url, "--map", "gallery", session])
        #expect(noToken.status == 2 && noToken.stderr.contains("--token"))
        let closed = try await ArcloudProcess.runOffThread(["localize", "--server", "http://127.0.0.1:1", "--token", token,
                                             "--map", "gallery", session])
        #expect(closed.status == 1 && closed.stderr.contains("cannot list the maps"))
    }
}
