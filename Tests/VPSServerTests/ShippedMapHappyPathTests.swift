import Localization
import Foundation
import Testing
import MapModel
import VPSModel
import VPSClient
import VPSServer
import Storage
import TestSupport

/// The package root (three levels above this file).
private let packageRoot = PackageDirectory.root
private let mapsDirectory = packageRoot.appendingPathComponent("Maps")
private let datasetsDirectory = packageRoot.appendingPathComponent("Datasets")

private func shippedDatasets() -> [URL] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: datasetsDirectory.path)) ?? []
    return names.sorted().map { datasetsDirectory.appendingPathComponent($0) }
        .filter { FileManager.default.fileExists(atPath: $0.appendingPathComponent("session.json").path) }
}

private let hasShippedData = !MapDirectory.mapIds(in: mapsDirectory).isEmpty && !shippedDatasets().isEmpty

/// The happy path over HTTP on the shipped map and recorded sessions: the service answers
/// exactly what the in-process localizer answers for the same frames (the localizer is
/// deterministic: seeded RANSAC). Runs once `Maps/` and `Datasets/` hold data.
@Suite(.enabled(if: hasShippedData, "needs a shipped map in Maps/ and a recorded session in Datasets/"))
struct ShippedMapHappyPathTests {
    @Test func httpAnswersTheSamePoseAsTheInProcessLocalizer() async throws {
        let mapId = try #require(MapDirectory.mapIds(in: mapsDirectory).first)
        let localizer = try Localizer(map: try VPSMap.load(from: mapsDirectory.appendingPathComponent("\(mapId).vpsmap").path))
        let store = try SQLiteTokenStore(path: ":memory:")
        let token = try store.create(name: "happy-path", maps: [mapId]).token
        // The first request loads the map inside its time budget; on a test machine shared
        // with compilers that alone can pass the default 10 s, and this test is about poses.
        let server = VPSServer(engine: MapDirectoryEngine(directory: mapsDirectory), tokens: store,
                               configuration: VPSServerConfiguration(localizationWorkers: 2, idleCoreHelpers: 1,
                                                                     localizationBudgetSeconds: 600))
        try server.start()
        defer { server.stop() }
        let client = try VPSClient(baseURL: server.baseURL, token: token, options: EngineServer.patientClient)

        var compared = 0, localized = 0
        for dataset in shippedDatasets() {
            let session = try RecordedSession.load(from: dataset)
            for frame in session.frames.prefix(6) {
                let image = [UInt8](try Data(contentsOf: dataset.appendingPathComponent(frame.image)))
                // With the frame's gravity: the wire must carry it for the poses to agree exactly
                // (image-only solves take other samples and land a few micrometres away).
                let local = try localizer.localize(encoded: image, intrinsics: session.camera, gravity: frame.gravity)
                let remote = try await client.localize(image: image, request: LocalizeRequest(
                    mapId: mapId, intrinsics: session.camera, gravity: frame.gravity))
                #expect(remote.status == (local.isLocalized ? .localized : .notLocalized), "\(dataset.lastPathComponent) \(frame.id)")
                #expect(remote.inliers == local.inliers)
                #expect(remote.sectionId == local.sectionId)
                if let p = local.pose, let q = remote.pose {
                    let e = p.error(to: q)
                    #expect(e.translation < 1e-9 && e.rotationDegrees < 1e-7, "\(frame.id): \(e)")
                } else {
                    #expect(local.pose == nil && remote.pose == nil)
                }
                compared += 1
                if local.isLocalized { localized += 1 }
            }
            if localized > 0 { break }
        }
        #expect(compared > 0)
        #expect(localized > 0, "no shipped frame localized against map '\(mapId)'")

        // One request at a time leaves a worker's core free, so the idle-core helper takes
        // part (a loaded test machine may keep it off a core for a while: a few more tries).
        func helperTasks() async throws -> Int {
            let text = try await client.metricsText()
            #expect(text.contains("arcloud_idle_core_helpers 1\n"))
            let line = text.split(separator: "\n").first { $0.hasPrefix("arcloud_idle_core_helper_tasks_total ") }
            return Int(line?.split(separator: " ").last ?? "") ?? -1
        }
        let dataset = try #require(shippedDatasets().first)
        let session = try RecordedSession.load(from: dataset)
        let frame = try #require(session.frames.first)
        let image = [UInt8](try Data(contentsOf: dataset.appendingPathComponent(frame.image)))
        let request = LocalizeRequest(mapId: mapId, intrinsics: session.camera, gravity: frame.gravity)
        var tries = 0
        while try await helperTasks() == 0 && tries < 100 {
            _ = try await client.localize(image: image, request: request)
            tries += 1
        }
        #expect(try await helperTasks() > 0, "the idle-core helper took no task in \(compared + tries) localizations")
    }
}
