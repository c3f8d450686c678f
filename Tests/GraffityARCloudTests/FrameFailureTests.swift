import Foundation
import Geometry
import GraffityARCloud
import Testing
import VPSModel

/// A frame that cannot be read, decoded or localized is that frame's outcome, as in
/// `arcloud localize`; it never stops the session's VPS requests.
@MainActor
@Suite struct FrameFailureTests {
    /// The wall image for every frame, except a damaged JPEG (cut in half) for `badFrame`.
    struct DamagedFrame: FrameImageSource {
        let jpeg: Data
        let badFrame: String
        func image(for frame: RecordedSession.Frame) throws -> EncodedImage {
            let data = frame.id == badFrame ? jpeg.prefix(jpeg.count / 2) : jpeg
            return try #require(EncodedImage(data: Data(data)))
        }
    }

    private func session(frames: Int = 8) -> RecordedSession {
        RecordedSession(name: "wall", camera: PlanarMap.camera, frames: (0..<frames).map { i in
            RecordedSession.Frame(id: "f\(i)", timestamp: Double(i) / 10, image: "f.jpg",
                                  odometry: Pose(rotation: .identity, translation: SIMD3(0.01 * Double(i), 0, 0)))
        })
    }

    @Test("a frame the VPS rejects (it does not decode) is not terminal: later frames localize")
    func rejectedFrameIsPerFrame() async throws {
        let planar = try PlanarMap()
        let sdk = GraffityARCloud(configuration: .init(mapId: "gallery", embeddedMapURL: planar.url,
                                                       vpsRequestInterval: .seconds(0.1)))
        let host = try sdk.makeVirtualReplay(session: session(), images: DamagedFrame(jpeg: planar.jpeg, badFrame: "f0"))
        var events = sdk.eventStream().makeAsyncIterator()
        try await host.loadView()
        try await host.advance(by: .seconds(0.05))
        // The first frame's request was rejected…
        guard case .localization(.failed(.requestRejected))? = await events.next() else {
            Issue.record("expected the first frame to be rejected")
            return
        }
        #expect(sdk.state.vpsState == .localizing)
        // …and the next frames are still sent and localize.
        try await host.advance(by: .seconds(0.5))
        #expect(host.vpsRequestCount > 1)
        #expect(sdk.state.vpsState == .localized(sectionId: "hall"))
    }

    @Test("a frame time the replay clock cannot hold is refused up front, naming the frame")
    func absurdTimestampIsRefused() throws {
        let planar = try PlanarMap()
        var s = session(frames: 3)
        s.frames[2].timestamp = 1e308
        let sdk = GraffityARCloud(configuration: .init(mapId: "gallery", embeddedMapURL: planar.url))
        #expect {
            try sdk.makeVirtualReplay(session: s, images: planar.images)
        } throws: { error in
            guard case .invalidUsage(let message)? = error as? ARCloudError else { return false }
            return message.contains("frames[2].timestamp")
        }
        var scripted = session(frames: 3)
        scripted.script = [ScriptAction(time: 1e308, action: .reset)]
        #expect {
            try sdk.makeVirtualReplay(session: scripted, images: planar.images)
        } throws: { error in
            guard case .invalidUsage(let message)? = error as? ARCloudError else { return false }
            return message.contains("script[0].time")
        }
    }
}
