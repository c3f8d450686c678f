import Foundation
import GraffityARCloud
import VPS
import Vision

/// A session folder with two small frames, and the SDK set up as `arcloud simulate
/// --clock virtual` sets it up, with one embedded backend kept for the whole process.
///
/// The frames are real JPEGs of 64x48 pixels: a session's 640x480 camera makes each a
/// per-frame rejection in microseconds instead of a localization of tens of milliseconds,
/// so the fuzzer spends its time on what these targets are about (times, scripts, frame
/// lists); `localize-request` covers the localizer.
enum SimulationFixture {
    static let folder: URL = {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("arcloud-fuzz-session-\(getpid())")
        let frames = folder.appendingPathComponent("frames")
        do {
            try FileManager.default.createDirectory(at: frames, withIntermediateDirectories: true)
            for (seed, name) in ["000000.jpg", "000001.jpg"].enumerated() {
                let image = try SyntheticImages.texture(width: 64, height: 48, seed: UInt64(seed + 1))
                try Data(try SyntheticImages.encode(image, as: .jpeg)).write(to: frames.appendingPathComponent(name))
            }
        } catch {
            fatalError("arcloud-fuzz cannot prepare \(folder.path): \(error)")
        }
        atexit { try? FileManager.default.removeItem(at: SimulationFixture.folder) }
        return folder
    }()

    /// The first two frames of the shipped walk session, without its script.
    static let twoFrameSession: RecordedSession = {
        let url = packageRoot.appendingPathComponent("Datasets/gallery-query-walk")
        do {
            var session = try RecordedSession.load(from: url)
            session.frames = Array(session.frames.prefix(2))
            session.script = nil
            return session
        } catch {
            fatalError("arcloud-fuzz needs \(url.path): \(error)")
        }
    }()

    static let backend = EmbeddedVPSBackend(mapId: "gallery", mapURL: GalleryFixture.mapURL)

    /// Replays `session` to its end on the virtual clock; errors are outcomes, not crashes.
    static func simulate(_ session: RecordedSession) {
        let directory = folder
        blockingOnMainActor {
            let configuration = GraffityARCloud.Configuration(
                mapId: "gallery", embeddedMapURL: GalleryFixture.mapURL, jitterSeed: 1)
            let sdk = GraffityARCloud(configuration: configuration, backend: backend)
            guard let host = try? sdk.makeVirtualReplay(session: session, directory: directory) else { return }
            try? await host.loadView()
            try? await host.runToEnd()
            await sdk.shutdown()
        }
    }
}
