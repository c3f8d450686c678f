import Foundation
import GraffityARCloud
import Formats
import Localization
import Storage
import VPSModel
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
                // Any valid JPEG will do: a gradient that differs per frame.
                let pixels = (0..<(64 * 48)).map { UInt8(truncatingIfNeeded: ($0 % 64) * 3 + ($0 / 64) * 5 + seed * 40) }
                try ImageEncoding.jpeg(gray: pixels, width: 64, height: 48).write(to: frames.appendingPathComponent(name))
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
