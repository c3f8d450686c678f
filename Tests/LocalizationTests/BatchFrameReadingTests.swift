import Foundation
import Localization
import Support
import Testing
import TestSupport
import VPSModel

/// A batch reads its frames through `SessionFrames` however many there are: each frame is
/// handed out once, in both modes, and reading the ten-thousandth costs what the first did.
@Suite struct BatchFrameReadingTests {
    @Test(arguments: [LocalizationMode.singleShot, .tracking])
    func everyFrameOfALongSessionIsLocalizedOnce(mode: LocalizationMode) throws {
        let map = try #require(PackageDirectory.galleryMap, "Maps/gallery.vpsmap must load")
        // Images that are not there: each frame is refused at once, before the localizer,
        // so a run of 40,000 frames takes a second. (A reader kept in a lock's value was
        // wrapped once per frame and overflowed the stack at about 12,000.)
        let frames = (0..<40_000).map { RecordedSession.Frame(id: "\($0)", timestamp: Double($0), image: "frames/missing-\($0).jpg") }
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("arcloud-batch-\(UUID())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let batch = BatchLocalizer(localizer: try Localizer(map: map), mode: mode, workers: 2)
        let seen = Locked([Int](repeating: 0, count: frames.count))
        _ = try batch.run(frames: frames, camera: DatasetFixtures.session().camera, in: dir) { i, outcome in
            seen.withLock { $0[i] += 1 }
            #expect(outcome.frameId == "\(i)" && !outcome.result.isLocalized)
        }
        #expect(seen.withLock { $0 } == [Int](repeating: 1, count: frames.count))
    }
}
